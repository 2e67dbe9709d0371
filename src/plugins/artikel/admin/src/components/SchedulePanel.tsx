import { useIntl } from 'react-intl';
import { Button, Flex, Typography } from '@strapi/design-system';
import { useForm } from '@strapi/strapi/admin';
import { getTranslation } from '../utils/get-translation';

const ARTICLE_UID = 'api::article.article';
const FIELD = 'publish_at';

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
const Schedule = ({ saved }: { saved: string | null }) => {
  const intl = useIntl();
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
    content: <Schedule saved={document?.publish_at ?? null} />,
  };
};
