import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Flex, Link, Typography } from '@strapi/design-system';
import type { MostReadRecord as MostReadRow } from '../../../shared/admin-api';
import { useArtikelApi } from '../api/artikel-api';
import { getTranslation } from '../utils/get-translation';

type Loaded = MostReadRow[] | 'failed' | null;

const editViewOf = (documentId: string) => `/content-manager/collection-types/api::article.article/${encodeURIComponent(documentId)}`;

/**
 * The admin home page's "most read" widget: the published articles the public list sorted by views
 * shows first (GET /artikel/most-read), each linking to its edit view.
 */
export const MostReadWidget = () => {
  const api = useArtikelApi();
  const { formatMessage, formatNumber } = useIntl();
  const [loaded, setLoaded] = useState<Loaded>(null);

  useEffect(() => {
    let current = true;
    api
      .mostRead()
      .then((answer) => {
        if (current) setLoaded(answer.data);
      })
      .catch(() => {
        if (current) setLoaded('failed');
      });
    return () => {
      current = false;
    };
  }, [api]);

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
