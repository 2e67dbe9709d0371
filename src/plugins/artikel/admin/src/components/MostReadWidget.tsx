import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Flex, Link, Typography } from '@strapi/design-system';
import { useFetchClient } from '@strapi/strapi/admin';
import { PLUGIN_ID } from '../../../shared/plugin-id';
import { getTranslation } from '../utils/get-translation';

interface MostReadRow {
  document_id: string;
  title: string;
  slug: string;
  views: number;
}

type Loaded = MostReadRow[] | 'failed' | null;

const editViewOf = (documentId: string) => `/content-manager/collection-types/api::article.article/${encodeURIComponent(documentId)}`;

/**
 * The admin home page's "most read" widget: the published articles the public list sorted by views
 * shows first (GET /artikel/most-read), each linking to its edit view.
 */
export const MostReadWidget = () => {
  const { get } = useFetchClient();
  const { formatMessage, formatNumber } = useIntl();
  const [loaded, setLoaded] = useState<Loaded>(null);

  useEffect(() => {
    let current = true;
    get<{ data: MostReadRow[] }>(`/${PLUGIN_ID}/most-read`)
      .then((response) => {
        if (current) setLoaded(response.data.data);
      })
      .catch(() => {
        if (current) setLoaded('failed');
      });
    return () => {
      current = false;
    };
  }, [get]);

  if (loaded === null) return null;
  if (loaded === 'failed' || loaded.length === 0) {
    return (
      <Typography variant="omega" textColor="neutral600">
        {loaded === 'failed'
          ? formatMessage({ id: getTranslation('mostRead.unavailable'), defaultMessage: 'The most read articles could not be loaded' })
          : formatMessage({ id: getTranslation('mostRead.none'), defaultMessage: 'No published article yet' })}
      </Typography>
    );
  }
  return (
    <Flex direction="column" alignItems="stretch" gap={2} tag="ol">
      {loaded.map((row) => (
        <Flex key={row.document_id} tag="li" justifyContent="space-between" gap={4}>
          <Box minWidth={0}>
            <Link tag={RouterLink} to={editViewOf(row.document_id)}>
              {row.title}
            </Link>
          </Box>
          <Typography variant="pi" textColor="neutral600">
            {formatMessage(
              { id: getTranslation('mostRead.views'), defaultMessage: '{count, plural, one {# read} other {# reads}}' },
              { count: row.views, formatted: formatNumber(row.views) },
            )}
          </Typography>
        </Flex>
      ))}
    </Flex>
  );
};
