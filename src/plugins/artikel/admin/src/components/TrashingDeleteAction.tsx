import * as React from 'react';
import { Flex, Typography } from '@strapi/design-system';
import { WarningCircle } from '@strapi/icons';
import { adminApi, isFetchError, useAPIErrorHandler, useFetchClient, useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { useArtikelApi } from '../api/artikel-api';
import { getTranslation } from '../utils/get-translation';

const ARTICLE = 'api::article.article';

/** What the Content Manager hands a document action, and the part of its answer changed here. */
interface ActionProps {
  model: string;
  [other: string]: unknown;
}
interface ActionDescription {
  dialog?: { content?: React.ReactNode; onConfirm?: () => Promise<void> | void; [other: string]: unknown };
  [other: string]: unknown;
}
export type DocumentAction = ((props: ActionProps) => ActionDescription | null) & { type?: string; position?: unknown };

// Asked once per page load: the list shows the action on every row, the setting changes only with a restart.
let keptDays: Promise<number> | null = null;

/** How many days a deleted article waits in the trash (ARTIKEL_TRASH_DAYS), once an article's actions show; null until known. */
function useTrashDays(model: string): number | null {
  const api = useArtikelApi();
  const [days, setDays] = React.useState<number | null>(null);
  React.useEffect(() => {
    if (model !== ARTICLE) return undefined;
    let shown = true;
    keptDays ??= api.trashSettings().then((answer) => answer.data.keep_days);
    keptDays
      .then((kept) => {
        if (shown) setDays(kept);
      })
      .catch(() => {
        // Asked again next time; meanwhile the Content Manager's own text stays.
        keptDays = null;
      });
    return () => {
      shown = false;
    };
  }, [api, model]);
  return days;
}

/**
 * The Content Manager's delete action, saying what deleting an article does (issue "Editors"): its
 * dialog said "Are you sure? This action is irreversible", but an article goes to the trash for
 * ARTIKEL_TRASH_DAYS days, from where an editor restores it. And confirming no longer ends in a red
 * "Not Found": the Content Manager's delete marks the article's own cached read stale, and the open
 * edit view (or, in the list, the row's actions) read it again the moment it was gone. Here the same
 * request is sent, the same notices shown, and only the lists are marked stale before the editor
 * lands on the list. Who may delete is the server's to say, as before; other content types keep
 * the Content Manager's action as it is.
 */
export function sayingWhereDeletedArticlesGo(original: DocumentAction): DocumentAction {
  const Action: DocumentAction = (props) => {
    const description = original(props);
    const { formatMessage } = useIntl();
    const days = useTrashDays(props.model);
    const navigate = useNavigate();
    const dispatch = useDispatch();
    const { del } = useFetchClient();
    const { toggleNotification } = useNotification();
    const { formatAPIError } = useAPIErrorHandler();
    if (props.model !== ARTICLE || description === null || description.dialog === undefined || days === null) return description;
    const text =
      days === 0
        ? formatMessage({ id: getTranslation('delete.dialog.forGood'), defaultMessage: 'This article is deleted for good at once.' })
        : formatMessage(
            { id: getTranslation('delete.dialog.toTrash'), defaultMessage: 'This article moves to the trash for {days} days.' },
            { days },
          );
    const { model } = props;
    const collectionType = String(props.collectionType);
    const documentId = String(props.documentId);
    return {
      ...description,
      dialog: {
        ...description.dialog,
        onConfirm: async () => {
          try {
            await del(`/content-manager/${collectionType}/${model}/${encodeURIComponent(documentId)}`, { params: { locale: '*' } });
          } catch (error) {
            toggleNotification({
              type: 'danger',
              message: isFetchError(error)
                ? formatAPIError(error)
                : formatMessage({ id: 'notification.error', defaultMessage: 'An error occurred' }),
            });
            return;
          }
          dispatch(
            adminApi.util.invalidateTags([
              // Not the article's own read (nor ALL_ITEMS, which every document read is tagged with).
              { type: 'Document', id: `${model}_LIST` },
              'RecentDocumentList',
              'CountDocuments',
            ] as never),
          );
          toggleNotification({
            type: 'success',
            message: formatMessage({ id: 'content-manager.success.record.delete', defaultMessage: 'Deleted document' }),
          });
          navigate({ pathname: `/content-manager/${collectionType}/${model}` }, { replace: true });
        },
        content: (
          <Flex direction="column" gap={2}>
            <WarningCircle width="24px" height="24px" fill="danger600" />
            <Typography tag="p" variant="omega" textAlign="center">
              {text}
            </Typography>
          </Flex>
        ),
      },
    };
  };
  Action.type = original.type;
  Action.position = original.position;
  return Action;
}
