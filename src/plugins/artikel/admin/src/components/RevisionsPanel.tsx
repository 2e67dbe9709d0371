import * as React from 'react';
import { useCallback, useEffect, useState } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { Box, Button, Dialog, Field, Flex, Modal, SingleSelect, SingleSelectOption, TextButton, Typography } from '@strapi/design-system';
import { useNotification } from '@strapi/strapi/admin';
import type {
  ActorRecord as Actor,
  RevisionEntryRecord as RevisionEntry,
  RevisionRecord as RevisionDetail,
  TextChangeRecord as TextChange,
} from '../../../shared/admin-api';
import { useArtikelApi } from '../api/artikel-api';
import { PLUGIN_ID } from '../../../shared/plugin-id';
import { getTranslation } from '../utils/get-translation';

const ARTICLE_UID = 'api::article.article';

// A restore reloads the page (see restore below); the notice of it waits here for the reloaded panel.
const RESTORED_KEY = `${PLUGIN_ID}.restored`;

interface PanelProps {
  model: string;
  documentId?: string;
  /** The document as the edit view holds it: it changes with every save, publish and unpublish. */
  document?: { updatedAt?: string | null; publishedAt?: string | null; status?: string | null } | null;
  meta?: { availableStatus?: Array<{ updatedAt?: string | null; publishedAt?: string | null; status?: string | null }> } | null;
}

/** What changes with each write the edit view makes (a save, a publish, an unpublish): the list is read again then. */
const versionOf = ({ document, meta }: PanelProps): string =>
  JSON.stringify([
    document?.updatedAt,
    document?.publishedAt,
    document?.status,
    meta?.availableStatus?.map((other) => [other.status, other.updatedAt]),
  ]);

type Loaded<T> = { data: T } | 'failed' | null;

/** The message of the contract's error body, when the failed request had one. */
function errorMessage(error: unknown): string | null {
  const data = (error as { response?: { data?: { error?: { message?: unknown } } } } | null)?.response?.data;
  return typeof data?.error?.message === 'string' ? data.error.message : null;
}

/** Who made a revision, in words. */
function actorText({ formatMessage }: IntlShape, actor: Actor): string {
  const name = actor.name ?? formatMessage({ id: getTranslation('revisions.actor.unknown'), defaultMessage: 'unknown' });
  switch (actor.kind) {
    case 'editor':
      return actor.name ?? formatMessage({ id: getTranslation('revisions.actor.editor'), defaultMessage: 'An editor' });
    case 'api-token':
      return formatMessage({ id: getTranslation('revisions.actor.apiToken'), defaultMessage: 'API token ‘{name}’' }, { name });
    case 'mcp':
      return formatMessage({ id: getTranslation('revisions.actor.mcp'), defaultMessage: 'Agent (MCP) of {name}' }, { name });
    case 'schedule':
      return formatMessage({ id: getTranslation('revisions.actor.schedule'), defaultMessage: 'Scheduler' });
    default:
      return formatMessage({ id: getTranslation('revisions.actor.system'), defaultMessage: 'System (a script)' });
  }
}

/** What a revision did, in words. */
function actionText({ formatMessage }: IntlShape, entry: RevisionEntry): string {
  switch (entry.action) {
    case 'create':
      return formatMessage({ id: getTranslation('revisions.action.create'), defaultMessage: 'Created' });
    case 'publish':
      return formatMessage({ id: getTranslation('revisions.action.publish'), defaultMessage: 'Published' });
    case 'unpublish':
      return formatMessage({ id: getTranslation('revisions.action.unpublish'), defaultMessage: 'Unpublished' });
    case 'schedule':
      return formatMessage({ id: getTranslation('revisions.action.schedule'), defaultMessage: 'Scheduled' });
    case 'restore':
      return formatMessage(
        { id: getTranslation('revisions.action.restore'), defaultMessage: 'Restored version {number}' },
        { number: entry.restored_from ?? '?' },
      );
    case 'baseline':
      return formatMessage({ id: getTranslation('revisions.action.baseline'), defaultMessage: 'As it was before revisions were kept' });
    default:
      return formatMessage({ id: getTranslation('revisions.action.update'), defaultMessage: 'Changed' });
  }
}

const RELATIVE_STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "5 minutes ago": the largest unit the time since has at least one of. */
function relativeTime({ formatRelativeTime }: IntlShape, iso: string): string {
  let amount = (new Date(iso).getTime() - Date.now()) / 1000;
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return formatRelativeTime(Math.round(amount), unit, { numeric: 'auto' });
    amount /= size;
  }
  return formatRelativeTime(Math.round(amount), 'year');
}

const FIELD_LABELS: Record<TextChange['field'], { id: string; defaultMessage: string }> = {
  title: { id: getTranslation('revisions.field.title'), defaultMessage: 'Title' },
  summary: { id: getTranslation('revisions.field.summary'), defaultMessage: 'Summary' },
  content: { id: getTranslation('revisions.field.content'), defaultMessage: 'Content' },
};

/**
 * The fields a revision changed, by the labels the edit view shows them with in the editor's
 * language (`fields.article.<field>.label`; status and schedule by their own words), not their
 * names in the database (issue "Editors": "Diubah: title, slug, cover_image_url").
 */
function changedFieldsText({ formatMessage }: IntlShape, fields: string[]): string {
  if (fields.length === 0) return formatMessage({ id: getTranslation('revisions.changed.none'), defaultMessage: 'no change to the text' });
  return fields
    .map((field) =>
      formatMessage({
        id: getTranslation(field === 'status' ? 'revisions.field.status' : `fields.article.${field}.label`),
        defaultMessage: field,
      }),
    )
    .join(', ');
}

/** One text's change: kept words plain, removed ones struck through in red, added ones in green. */
const WordDiff = ({ change }: { change: TextChange }) => {
  const { formatMessage } = useIntl();
  return (
    <Flex direction="column" alignItems="stretch" gap={1}>
      <Typography variant="sigma" textColor="neutral600">
        {formatMessage(FIELD_LABELS[change.field])}
      </Typography>
      <Box padding={3} background="neutral100" hasRadius style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        <Typography variant="omega" textColor="neutral800">
          {change.parts.map((part, index) =>
            part.kind === 'same' ? (
              <span key={index}>{part.text}</span>
            ) : (
              <React.Fragment key={index}>
                {/* A word replaced by another: a space between them, or they read as one ("TengahSaat"). */}
                {part.kind === 'added' && change.parts[index - 1]?.kind === 'removed' ? ' ' : null}
                <Box
                  tag={part.kind === 'removed' ? 'del' : 'ins'}
                  data-diff={part.kind}
                  background={part.kind === 'removed' ? 'danger100' : 'success100'}
                  color={part.kind === 'removed' ? 'danger700' : 'success700'}
                  style={{ textDecoration: part.kind === 'removed' ? 'line-through' : 'none' }}
                >
                  {part.text}
                </Box>
              </React.Fragment>
            ),
          )}
        </Typography>
      </Box>
    </Flex>
  );
};

interface RevisionModalProps {
  documentId: string;
  entry: RevisionEntry;
  /** Every kept version, newest first: any of them can be compared with this one. */
  entries: RevisionEntry[];
  newest: boolean;
  onClose: () => void;
}

// The compare list's choice of the version just before (the server's default).
const PREVIOUS = 'previous';

/** One revision: what it changed in the title, summary and content, and a restore of it (behind a confirmation). */
const RevisionModal = ({ documentId, entry, entries, newest, onClose }: RevisionModalProps) => {
  const intl = useIntl();
  const { formatMessage } = intl;
  const api = useArtikelApi();
  const { toggleNotification } = useNotification();
  const [detail, setDetail] = useState<Loaded<RevisionDetail>>(null);
  const [restoring, setRestoring] = useState(false);
  // The version compared with: the one before it, or any other the editor picks.
  const [against, setAgainst] = useState<number | null>(null);
  const others = entries.filter((other) => other.number !== entry.number);

  useEffect(() => {
    let current = true;
    setDetail(null);
    api
      .revision(documentId, entry.number, against ?? undefined)
      .then((answer) => {
        if (current) setDetail({ data: answer.data });
      })
      .catch(() => {
        if (current) setDetail('failed');
      });
    return () => {
      current = false;
    };
  }, [documentId, entry.number, against, api]);

  const restore = async () => {
    setRestoring(true);
    try {
      await api.restoreRevision(documentId, entry.number);
      // The edit view's form holds the text it loaded; a reload shows the restored one, and the notice follows it.
      window.sessionStorage.setItem(RESTORED_KEY, JSON.stringify({ documentId, number: entry.number }));
      window.location.reload();
    } catch (error) {
      setRestoring(false);
      toggleNotification({
        type: 'danger',
        message:
          errorMessage(error) ??
          formatMessage({ id: getTranslation('revisions.restore.failed'), defaultMessage: 'The version could not be restored' }),
      });
    }
  };

  const changes = detail !== null && detail !== 'failed' ? detail.data.text_changes : [];
  return (
    <Modal.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <Modal.Content>
        <Modal.Header closeLabel={formatMessage({ id: getTranslation('revisions.close'), defaultMessage: 'Close' })}>
          <Modal.Title>
            {formatMessage(
              { id: getTranslation('revisions.modal.title'), defaultMessage: 'Version {number}: {action}' },
              { number: entry.number, action: actionText(intl, entry) },
            )}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Flex direction="column" alignItems="stretch" gap={4}>
            <Typography variant="pi" textColor="neutral600">
              {formatMessage(
                { id: getTranslation('revisions.modal.by'), defaultMessage: '{who}, {when}' },
                { who: actorText(intl, entry.actor), when: intl.formatDate(entry.created_at, { dateStyle: 'medium', timeStyle: 'short' }) },
              )}
            </Typography>
            {others.length > 1 && (
              <Field.Root name="compare-with">
                <Field.Label>
                  {formatMessage({ id: getTranslation('revisions.compare.label'), defaultMessage: 'Compare with' })}
                </Field.Label>
                <SingleSelect
                  value={against === null ? PREVIOUS : String(against)}
                  onChange={(value: string | number) => setAgainst(String(value) === PREVIOUS ? null : Number(value))}
                >
                  <SingleSelectOption value={PREVIOUS}>
                    {formatMessage({ id: getTranslation('revisions.compare.previous'), defaultMessage: 'The version before it' })}
                  </SingleSelectOption>
                  {others.map((other) => (
                    <SingleSelectOption key={other.number} value={String(other.number)}>
                      {`${formatMessage(
                        { id: getTranslation('revisions.compare.version'), defaultMessage: 'Version {number}' },
                        { number: other.number },
                      )}: ${actionText(intl, other)}`}
                    </SingleSelectOption>
                  ))}
                </SingleSelect>
              </Field.Root>
            )}
            {detail === null ? (
              <Typography variant="omega">
                {formatMessage({ id: getTranslation('revisions.loading'), defaultMessage: 'Loading…' })}
              </Typography>
            ) : detail === 'failed' ? (
              <Typography variant="omega" textColor="danger600">
                {formatMessage({ id: getTranslation('revisions.detail.unavailable'), defaultMessage: 'This version could not be loaded' })}
              </Typography>
            ) : changes.length === 0 && against !== null ? (
              <Typography variant="omega">
                {formatMessage({
                  id: getTranslation('revisions.compare.same'),
                  defaultMessage: 'The title, summary and content are the same in both versions',
                })}
              </Typography>
            ) : changes.length === 0 ? (
              <Typography variant="omega">
                {formatMessage(
                  {
                    id: getTranslation('revisions.detail.noText'),
                    defaultMessage: 'No change to title, summary or content (changed: {fields})',
                  },
                  { fields: changedFieldsText(intl, entry.changed) },
                )}
              </Typography>
            ) : (
              changes.map((change) => <WordDiff key={change.field} change={change} />)
            )}
          </Flex>
        </Modal.Body>
        <Modal.Footer>
          <Modal.Close>
            <Button variant="tertiary">{formatMessage({ id: getTranslation('revisions.close'), defaultMessage: 'Close' })}</Button>
          </Modal.Close>
          {newest ? (
            <Typography variant="pi" textColor="neutral600">
              {formatMessage({ id: getTranslation('revisions.current'), defaultMessage: 'This is the current version' })}
            </Typography>
          ) : (
            <Dialog.Root>
              <Dialog.Trigger>
                <Button variant="secondary" loading={restoring}>
                  {formatMessage({ id: getTranslation('revisions.restore'), defaultMessage: 'Restore this version' })}
                </Button>
              </Dialog.Trigger>
              <Dialog.Content>
                <Dialog.Header>
                  {formatMessage(
                    { id: getTranslation('revisions.restore.confirm.title'), defaultMessage: 'Restore version {number}?' },
                    { number: entry.number },
                  )}
                </Dialog.Header>
                <Dialog.Body>
                  {formatMessage({
                    id: getTranslation('revisions.restore.confirm.body'),
                    defaultMessage:
                      'The text, category and photos of this version become the article’s again, as a new version; the slug, status and schedule stay. A published article stays published with the restored text. Unsaved changes in the form are lost.',
                  })}
                </Dialog.Body>
                <Dialog.Footer>
                  <Dialog.Cancel>
                    <Button variant="tertiary">
                      {formatMessage({ id: getTranslation('revisions.cancel'), defaultMessage: 'Cancel' })}
                    </Button>
                  </Dialog.Cancel>
                  <Dialog.Action>
                    <Button variant="default" onClick={() => void restore()}>
                      {formatMessage({ id: getTranslation('revisions.restore.confirm.action'), defaultMessage: 'Restore' })}
                    </Button>
                  </Dialog.Action>
                </Dialog.Footer>
              </Dialog.Content>
            </Dialog.Root>
          )}
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
};

/** One line of the list: the version's number, what and when, who, and which fields it changed. */
const RevisionItem = ({ entry, onOpen }: { entry: RevisionEntry; onOpen: () => void }) => {
  const intl = useIntl();
  const { formatMessage } = intl;
  return (
    <Flex tag="li" direction="column" alignItems="stretch" gap={1} paddingBottom={3} data-revision={entry.number}>
      <Flex justifyContent="space-between" gap={2}>
        <Typography variant="omega" fontWeight="bold" textColor="neutral800">
          {formatMessage(
            { id: getTranslation('revisions.item.title'), defaultMessage: '#{number} {action}' },
            { number: entry.number, action: actionText(intl, entry) },
          )}
        </Typography>
        <Typography
          variant="pi"
          textColor="neutral600"
          title={intl.formatDate(entry.created_at, { dateStyle: 'full', timeStyle: 'medium' })}
        >
          <time dateTime={entry.created_at}>{relativeTime(intl, entry.created_at)}</time>
        </Typography>
      </Flex>
      <Typography variant="pi" textColor="neutral700">
        {actorText(intl, entry.actor)}
      </Typography>
      {entry.changed.length > 0 && (
        <Typography variant="pi" textColor="neutral600">
          {formatMessage(
            { id: getTranslation('revisions.item.changed'), defaultMessage: 'Changed: {fields}' },
            { fields: changedFieldsText(intl, entry.changed) },
          )}
        </Typography>
      )}
      <Box>
        <TextButton onClick={onOpen}>
          {formatMessage({ id: getTranslation('revisions.item.open'), defaultMessage: 'Show changes' })}
        </TextButton>
      </Box>
    </Flex>
  );
};

const RevisionList = ({ documentId, version }: { documentId: string; version: string }) => {
  const api = useArtikelApi();
  const { formatMessage } = useIntl();
  const { toggleNotification } = useNotification();
  const [loaded, setLoaded] = useState<Loaded<RevisionEntry[]>>(null);
  const [open, setOpen] = useState<RevisionEntry | null>(null);
  const close = useCallback(() => setOpen(null), []);

  useEffect(() => {
    const kept = window.sessionStorage.getItem(RESTORED_KEY);
    if (kept === null) return;
    let restored: { documentId?: unknown; number?: unknown } = {};
    try {
      restored = JSON.parse(kept) as typeof restored;
    } catch {
      // Something else wrote the key: it is no notice of ours.
    }
    if (restored.documentId !== documentId) return;
    window.sessionStorage.removeItem(RESTORED_KEY);
    toggleNotification({
      type: 'success',
      message: formatMessage(
        { id: getTranslation('revisions.restore.done'), defaultMessage: 'Version {number} restored as a new version' },
        { number: String(restored.number) },
      ),
    });
  }, [documentId, formatMessage, toggleNotification]);

  useEffect(() => {
    let current = true;
    api
      .revisions(documentId)
      .then((answer) => {
        if (current) setLoaded({ data: answer.data });
      })
      .catch(() => {
        if (current) setLoaded('failed');
      });
    return () => {
      current = false;
    };
    // `version`: read again after each save, publish or unpublish of the open article (issue "Editors").
  }, [documentId, api, version]);

  if (loaded === null) return null;
  if (loaded === 'failed')
    return (
      <Typography variant="omega" textColor="neutral800">
        {formatMessage({ id: getTranslation('revisions.unavailable'), defaultMessage: 'The revisions could not be loaded' })}
      </Typography>
    );
  if (loaded.data.length === 0)
    return (
      <Typography variant="omega" textColor="neutral800">
        {formatMessage({ id: getTranslation('revisions.none'), defaultMessage: 'No revisions kept yet' })}
      </Typography>
    );
  const newest = loaded.data[0].number;
  return (
    <Box width="100%">
      <Box tag="ol" style={{ maxHeight: '24rem', overflowY: 'auto', listStyle: 'none', padding: 0, margin: 0 }}>
        {loaded.data.map((entry) => (
          <RevisionItem key={entry.number} entry={entry} onOpen={() => setOpen(entry)} />
        ))}
      </Box>
      {open !== null && (
        <RevisionModal documentId={documentId} entry={open} entries={loaded.data} newest={open.number === newest} onClose={close} />
      )}
    </Box>
  );
};

/** The Revisions side panel of an article's edit view: every version kept, what each changed, and a restore. */
export const RevisionsPanel = (props: PanelProps) => {
  const { model, documentId } = props;
  const { formatMessage } = useIntl();
  if (model !== ARTICLE_UID || !documentId) return null;
  return {
    title: formatMessage({ id: getTranslation('revisions.title'), defaultMessage: 'Revisions' }),
    content: <RevisionList documentId={documentId} version={versionOf(props)} />,
  };
};
