import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { Typography } from '@strapi/design-system';
import { useArtikelApi } from '../api/artikel-api';
import { getTranslation } from '../utils/get-translation';

const ARTICLE_UID = 'api::article.article';

interface PanelProps {
  model: string;
  documentId?: string;
}

type Loaded = { views: number } | 'failed' | null;

const ViewCount = ({ documentId }: { documentId: string }) => {
  const api = useArtikelApi();
  const { formatMessage } = useIntl();
  const [loaded, setLoaded] = useState<Loaded>(null);

  useEffect(() => {
    let current = true;
    api
      .views(documentId)
      .then((answer) => {
        if (current) setLoaded({ views: answer.data.views });
      })
      .catch(() => {
        if (current) setLoaded('failed');
      });
    return () => {
      current = false;
    };
  }, [documentId, api]);

  if (loaded === null) return null;
  const text =
    loaded === 'failed'
      ? formatMessage({ id: getTranslation('views.unavailable'), defaultMessage: 'The view count could not be loaded' })
      : loaded.views === 0
        ? formatMessage({ id: getTranslation('views.none'), defaultMessage: 'Not read on the public site yet' })
        : formatMessage(
            { id: getTranslation('views.count'), defaultMessage: '{count, plural, one {# read} other {# reads}} on the public site' },
            { count: loaded.views },
          );
  return (
    <Typography variant="omega" textColor="neutral800">
      {text}
    </Typography>
  );
};

export const ViewsPanel = ({ model, documentId }: PanelProps) => {
  const { formatMessage } = useIntl();
  if (model !== ARTICLE_UID || !documentId) return null;
  return {
    title: formatMessage({ id: getTranslation('views.title'), defaultMessage: 'Views' }),
    content: <ViewCount documentId={documentId} />,
  };
};
