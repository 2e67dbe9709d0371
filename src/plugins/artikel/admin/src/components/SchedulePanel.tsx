import * as React from 'react';
import { useIntl } from 'react-intl';
import { useDispatch } from 'react-redux';
import { Button, Flex, Typography } from '@strapi/design-system';
import { adminApi, useForm } from '@strapi/strapi/admin';
import { getTranslation } from '../utils/get-translation';

const ARTICLE_UID = 'api::article.article';
const FIELD = 'publish_at';

// When the edit view reads the article again after its saved schedule's time: the scheduler looks
// every second, so 3 s after it is live; once more at 15 s for a scheduler that was busy.
const READ_AGAIN_AFTER_MS = [3_000, 15_000];
// setTimeout's longest wait (about 24.8 days); a schedule further away is followed on focus.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * An open edit view follows its article going live: once the saved schedule's time has passed, and
 * whenever the editor comes back to the tab, the Content Manager reads the article again (its
 * cached read is invalidated), so the header says Published without a reload. Not while the form
 * holds unsaved changes, which a fresh read would replace: those wait for the next Save.
 */
function useFollowSchedule(model: string, documentId: string, saved: string | null): void {
  const dispatch = useDispatch();
  const modified = useForm('SchedulePanel', (state) => state.modified) as boolean;
  const unsaved = React.useRef(modified);
  unsaved.current = modified;
  React.useEffect(() => {
    const due = saved === null ? NaN : Date.parse(saved);
    if (Number.isNaN(due)) return undefined;
    const readAgain = () => {
      if (!unsaved.current) dispatch(adminApi.util.invalidateTags([{ type: 'Document', id: `${model}_${documentId}` }] as never));
    };
    const timers = READ_AGAIN_AFTER_MS.map((after) =>
      setTimeout(readAgain, Math.min(LONGEST_TIMER_MS, Math.max(0, due - Date.now() + after))),
    );
    window.addEventListener('focus', readAgain);
    return () => {
      timers.forEach(clearTimeout);
      window.removeEventListener('focus', readAgain);
    };
  }, [dispatch, model, documentId, saved]);
}

interface PanelProps {
  model: string;
  documentId?: string;
  document?: { publish_at?: string | null } | null;
}

/**
 * When the open article goes live, in the editor's language and time zone ("Terjadwal: Jumat, 27
 * Nov, 14.05 WIB"), with a button that clears the time (the form's own field; Save ends the
 * schedule, as the field's help says). It shows the form's value, so a time just typed shows too,
 * marked as not yet saved.
 */
const Schedule = ({ model, documentId, saved }: { model: string; documentId: string; saved: string | null }) => {
  const intl = useIntl();
  useFollowSchedule(model, documentId, saved);
  const value = useForm('SchedulePanel', (state) => (state.values as Record<string, unknown>)[FIELD]) as string | null | undefined;
  const onChange = useForm('SchedulePanel', (state) => state.onChange);
  const when = value ?? null;
  if (when === null || Number.isNaN(Date.parse(when)))
    return (
      <Typography variant="omega" textColor="neutral800">
        {saved === null
          ? intl.formatMessage({ id: getTranslation('schedule.none'), defaultMessage: 'Not scheduled: set “Publish at” and Save' })
          : intl.formatMessage({ id: getTranslation('schedule.cleared'), defaultMessage: 'The schedule ends when you Save' })}
      </Typography>
    );
  const shown = intl.formatDate(when, {
    weekday: 'long',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  return (
    <Flex direction="column" alignItems="stretch" gap={2}>
      <Typography variant="omega" textColor="neutral800" fontWeight="semiBold">
        {intl.formatMessage({ id: getTranslation('schedule.when'), defaultMessage: 'Scheduled: {when}' }, { when: shown })}
      </Typography>
      {when !== saved && (
        <Typography variant="pi" textColor="neutral600">
          {intl.formatMessage({ id: getTranslation('schedule.unsaved'), defaultMessage: 'Not saved yet: Save to schedule it' })}
        </Typography>
      )}
      <Button variant="tertiary" onClick={() => onChange(FIELD, null)}>
        {intl.formatMessage({ id: getTranslation('schedule.cancel'), defaultMessage: 'Cancel the schedule' })}
      </Button>
    </Flex>
  );
};

/** The Schedule side panel of an article's edit view. */
export const SchedulePanel = ({ model, documentId, document }: PanelProps) => {
  const { formatMessage } = useIntl();
  if (model !== ARTICLE_UID || !documentId) return null;
  return {
    title: formatMessage({ id: getTranslation('schedule.title'), defaultMessage: 'Schedule' }),
    content: <Schedule model={model} documentId={documentId} saved={document?.publish_at ?? null} />,
  };
};
