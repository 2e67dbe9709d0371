import { useCallback, useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { Link as RouterLink } from 'react-router-dom';
import {
  Box,
  Button,
  Dialog,
  EmptyStateLayout,
  Flex,
  LinkButton,
  Table,
  Tbody,
  Td,
  Th,
  Thead,
  Tr,
  Typography,
} from '@strapi/design-system';
import { ArrowClockwise, Trash } from '@strapi/icons';
import { EmptyDocuments } from '@strapi/icons/symbols';
import { isFetchError, Layouts, Page, useNotification } from '@strapi/strapi/admin';
import type { TrashRecord as TrashEntry } from '../../../shared/admin-api';
import { useArtikelApi } from '../api/artikel-api';
import { getTranslation } from '../utils/get-translation';

/** What the editor is asked to confirm: one article deleted forever, or the whole trash. */
type Confirming = { kind: 'purge'; entry: TrashEntry } | { kind: 'empty' } | null;

const editViewOf = (documentId: string) => `/content-manager/collection-types/api::article.article/${encodeURIComponent(documentId)}`;

/** The message of the service's error body (its contract: { error: { message } }), else the client's own. */
function errorMessage(error: unknown): string {
  if (isFetchError(error)) return error.response?.data?.error?.message ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

const TrashPage = () => {
  const { formatMessage, formatDate } = useIntl();
  const api = useArtikelApi();
  const { toggleNotification } = useNotification();
  const [entries, setEntries] = useState<TrashEntry[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [restored, setRestored] = useState<{ documentId: string; title: string } | null>(null);

  const load = useCallback(async () => {
    try {
      setEntries((await api.trash()).data);
      setLoadError(null);
    } catch (error) {
      setLoadError(errorMessage(error));
    }
  }, [api]);

  useEffect(() => {
    void load();
  }, [load]);

  /** Runs one action on the trash, then reads the list again (someone else may have changed it meanwhile). */
  const act = async (work: () => Promise<string>, failure: (message: string) => string) => {
    setBusy(true);
    try {
      toggleNotification({ type: 'success', message: await work() });
    } catch (error) {
      toggleNotification({ type: 'danger', message: failure(errorMessage(error)) });
    } finally {
      setBusy(false);
      await load();
    }
  };

  const restore = (entry: TrashEntry) =>
    act(
      async () => {
        const answer = await api.restoreFromTrash(entry.document_id);
        setRestored({ documentId: answer.data.documentId, title: entry.title });
        return formatMessage(
          { id: getTranslation('trash.notice.restored'), defaultMessage: '‘{title}’ is restored as it was' },
          { title: entry.title },
        );
      },
      (message) =>
        formatMessage(
          { id: getTranslation('trash.error.restore'), defaultMessage: '‘{title}’ could not be restored: {message}' },
          { title: entry.title, message },
        ),
    );

  const purge = (entry: TrashEntry) =>
    act(
      async () => {
        await api.purge(entry.document_id);
        if (restored?.documentId === entry.document_id) setRestored(null);
        return formatMessage(
          { id: getTranslation('trash.notice.purged'), defaultMessage: '‘{title}’ is deleted forever' },
          { title: entry.title },
        );
      },
      (message) =>
        formatMessage(
          { id: getTranslation('trash.error.purge'), defaultMessage: '‘{title}’ could not be deleted: {message}' },
          { title: entry.title, message },
        ),
    );

  const empty = () =>
    act(
      async () => {
        const answer = await api.emptyTrash();
        return formatMessage(
          {
            id: getTranslation('trash.notice.emptied'),
            defaultMessage: '{count, plural, one {# article} other {# articles}} deleted forever',
          },
          { count: answer.data.purged },
        );
      },
      (message) =>
        formatMessage(
          { id: getTranslation('trash.error.empty'), defaultMessage: 'The trash could not be emptied: {message}' },
          { message },
        ),
    );

  /** Who deleted the article, in words: an editor by name, a token by its name, an agent by its owner, else a script. */
  const deletedBy = ({ kind, name }: TrashEntry['deleted_by']): string => {
    switch (kind) {
      case 'editor':
        return name ?? formatMessage({ id: getTranslation('trash.actor.editorUnnamed'), defaultMessage: 'an editor' });
      case 'api-token':
        return name === null
          ? formatMessage({ id: getTranslation('trash.actor.apiTokenUnnamed'), defaultMessage: 'an API token' })
          : formatMessage({ id: getTranslation('trash.actor.apiToken'), defaultMessage: 'API token ‘{name}’' }, { name });
      case 'mcp':
        return name === null
          ? formatMessage({ id: getTranslation('trash.actor.mcpUnnamed'), defaultMessage: 'an agent (MCP)' })
          : formatMessage({ id: getTranslation('trash.actor.mcp'), defaultMessage: 'Agent (MCP) of {name}' }, { name });
      case 'schedule':
        return formatMessage({ id: getTranslation('trash.actor.schedule'), defaultMessage: 'the schedule' });
      default:
        return formatMessage({ id: getTranslation('trash.actor.system'), defaultMessage: 'a script' });
    }
  };

  const title = formatMessage({ id: getTranslation('trash.title'), defaultMessage: 'Trash' });
  const purgeLabel = formatMessage({ id: getTranslation('trash.purge'), defaultMessage: 'Delete forever' });
  const emptyLabel = formatMessage({ id: getTranslation('trash.emptyTrash'), defaultMessage: 'Empty the trash' });

  if (loadError !== null && entries === null)
    return (
      <Page.Error
        content={formatMessage(
          { id: getTranslation('trash.error.load'), defaultMessage: 'The trash could not be loaded: {message}' },
          { message: loadError },
        )}
      />
    );
  if (entries === null) return <Page.Loading />;

  return (
    <Page.Main>
      <Page.Title>{title}</Page.Title>
      <Layouts.Header
        title={title}
        subtitle={formatMessage({
          id: getTranslation('trash.subtitle'),
          defaultMessage:
            'Deleted articles wait here until their purge date. Restored, an article is back as it was: same address, views and revisions.',
        })}
        primaryAction={
          <Button
            variant="danger-light"
            startIcon={<Trash />}
            disabled={busy || entries.length === 0}
            onClick={() => setConfirming({ kind: 'empty' })}
          >
            {emptyLabel}
          </Button>
        }
      />
      <Layouts.Content>
        {restored !== null && (
          <Box background="success100" borderColor="success200" hasRadius padding={4} marginBottom={4}>
            <Flex justifyContent="space-between" gap={4}>
              <Typography textColor="success700">
                {formatMessage(
                  { id: getTranslation('trash.restored.banner'), defaultMessage: '‘{title}’ is back in the Content Manager.' },
                  { title: restored.title },
                )}
              </Typography>
              <LinkButton tag={RouterLink} to={editViewOf(restored.documentId)} variant="success-light" size="S">
                {formatMessage({ id: getTranslation('trash.restored.open'), defaultMessage: 'Open the restored article' })}
              </LinkButton>
            </Flex>
          </Box>
        )}
        {entries.length === 0 ? (
          <EmptyStateLayout
            icon={<EmptyDocuments width="16rem" />}
            content={formatMessage({ id: getTranslation('trash.empty'), defaultMessage: 'The trash is empty' })}
          />
        ) : (
          <Table colCount={4} rowCount={entries.length + 1}>
            <Thead>
              <Tr>
                <Th>
                  <Typography variant="sigma">
                    {formatMessage({ id: getTranslation('trash.column.article'), defaultMessage: 'Article' })}
                  </Typography>
                </Th>
                <Th>
                  <Typography variant="sigma">
                    {formatMessage({ id: getTranslation('trash.column.deleted'), defaultMessage: 'Deleted' })}
                  </Typography>
                </Th>
                <Th>
                  <Typography variant="sigma">
                    {formatMessage({ id: getTranslation('trash.column.purge'), defaultMessage: 'Purge date' })}
                  </Typography>
                </Th>
                <Th>
                  <Typography variant="sigma">
                    {formatMessage({ id: getTranslation('trash.column.actions'), defaultMessage: 'Actions' })}
                  </Typography>
                </Th>
              </Tr>
            </Thead>
            <Tbody>
              {entries.map((entry) => (
                <Tr key={entry.document_id}>
                  <Td>
                    <Flex direction="column" alignItems="flex-start" gap={1}>
                      <Typography fontWeight="bold">{entry.title}</Typography>
                      <Typography variant="pi" textColor="neutral600">
                        {entry.slug}
                        {' · '}
                        {entry.was_published_at === null
                          ? formatMessage({ id: getTranslation('trash.state.draft'), defaultMessage: 'was a draft' })
                          : formatMessage({ id: getTranslation('trash.state.published'), defaultMessage: 'was published' })}
                      </Typography>
                    </Flex>
                  </Td>
                  <Td>
                    <Typography>
                      {formatMessage(
                        { id: getTranslation('trash.deletedAtBy'), defaultMessage: '{date} by {actor}' },
                        {
                          date: formatDate(entry.deleted_at, { dateStyle: 'medium', timeStyle: 'short' }),
                          actor: deletedBy(entry.deleted_by),
                        },
                      )}
                    </Typography>
                  </Td>
                  <Td>
                    <Typography>{formatDate(entry.purge_after, { dateStyle: 'medium' })}</Typography>
                  </Td>
                  <Td>
                    <Flex gap={2}>
                      <Button variant="secondary" startIcon={<ArrowClockwise />} disabled={busy} onClick={() => void restore(entry)}>
                        {formatMessage({ id: getTranslation('trash.restore'), defaultMessage: 'Restore' })}
                      </Button>
                      <Button
                        variant="danger-light"
                        startIcon={<Trash />}
                        disabled={busy}
                        onClick={() => setConfirming({ kind: 'purge', entry })}
                      >
                        {purgeLabel}
                      </Button>
                    </Flex>
                  </Td>
                </Tr>
              ))}
            </Tbody>
          </Table>
        )}
      </Layouts.Content>
      <Dialog.Root open={confirming !== null} onOpenChange={(open) => !open && setConfirming(null)}>
        {confirming !== null && (
          <Dialog.Content>
            <Dialog.Header>
              {confirming.kind === 'purge'
                ? formatMessage(
                    { id: getTranslation('trash.confirm.purge.title'), defaultMessage: 'Delete ‘{title}’ forever?' },
                    { title: confirming.entry.title },
                  )
                : formatMessage({ id: getTranslation('trash.confirm.empty.title'), defaultMessage: 'Empty the trash?' })}
            </Dialog.Header>
            <Dialog.Body>
              <Typography textAlign="center">
                {confirming.kind === 'purge'
                  ? formatMessage(
                      {
                        id: getTranslation('trash.confirm.purge.body'),
                        defaultMessage:
                          'The article, its views and its revisions are removed for good, and its slug {slug} is free for another article. This cannot be undone.',
                      },
                      { slug: confirming.entry.slug },
                    )
                  : formatMessage(
                      {
                        id: getTranslation('trash.confirm.empty.body'),
                        defaultMessage:
                          '{count, plural, one {# article is} other {# articles are}} removed for good, with their views and revisions. This cannot be undone.',
                      },
                      { count: entries.length },
                    )}
              </Typography>
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.Cancel>
                <Button fullWidth variant="tertiary">
                  {formatMessage({ id: getTranslation('trash.confirm.cancel'), defaultMessage: 'Cancel' })}
                </Button>
              </Dialog.Cancel>
              <Dialog.Action>
                <Button
                  fullWidth
                  variant="danger"
                  onClick={() => {
                    const chosen = confirming;
                    setConfirming(null);
                    void (chosen.kind === 'purge' ? purge(chosen.entry) : empty());
                  }}
                >
                  {confirming.kind === 'purge' ? purgeLabel : emptyLabel}
                </Button>
              </Dialog.Action>
            </Dialog.Footer>
          </Dialog.Content>
        )}
      </Dialog.Root>
    </Page.Main>
  );
};

export default TrashPage;
