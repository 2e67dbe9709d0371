import { useEffect, useState } from 'react';
import { Typography } from '@strapi/design-system';
import { useFetchClient } from '@strapi/strapi/admin';

const ARTICLE_UID = 'api::article.article';

interface PanelProps {
  model: string;
  documentId?: string;
}

const ViewCount = ({ documentId }: { documentId: string }) => {
  const { get } = useFetchClient();
  const [views, setViews] = useState<number | null>(null);

  useEffect(() => {
    let current = true;
    get<{ data: { views: number } }>(`/artikel/views/${encodeURIComponent(documentId)}`)
      .then((response) => {
        if (current) setViews(response.data.data.views);
      })
      .catch(() => {
        if (current) setViews(null);
      });
    return () => {
      current = false;
    };
  }, [documentId, get]);

  return (
    <Typography variant="omega" textColor="neutral800">
      {views === null ? 'Not counted yet' : `${views.toLocaleString()} reads on the public site`}
    </Typography>
  );
};

export const ViewsPanel = ({ model, documentId }: PanelProps) => {
  if (model !== ARTICLE_UID || !documentId) return null;
  return { title: 'Views', content: <ViewCount documentId={documentId} /> };
};
