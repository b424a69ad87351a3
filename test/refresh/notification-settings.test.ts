/**
 * Settings → Notifications on their own (src/refresh/notification-settings.ts): which recipients,
 * frequencies, topics, personal-data choices and mail shares the dialog's form is saved with, which
 * it refuses (next to which field, with which sentence), what a field left out keeps, and what
 * settings saved before a field existed read as. The dialog and the mail it leads to are driven end
 * to end in test/refresh/notifications.test.ts.
 */
import {
  type NotificationForm,
  type NotificationSettings,
  notificationsFromForm,
  notificationsOn,
  withDefaults,
} from '../../src/refresh/notification-settings';

/** Every topic the dialog offers, in its order. */
const ALL_TOPICS: NotificationSettings['topics'] = [
  'expiredInspections',
  'expiringInspections',
  'neverInspected',
  'expiredTrainings',
  'expiringTrainings',
  'refreshFailures',
];

/** Settings as a user saved them earlier: what a field left out of the form keeps. */
const SAVED: NotificationSettings = {
  recipients: ['saved@example.com'],
  frequency: 'weekly',
  topics: ['expiredTrainings', 'refreshFailures'],
  topicsOffered: ALL_TOPICS,
  personalData: 'names',
  allowOutsideDomain: true,
  mailShare: { maxRecipientsPerRun: 7, percentOfRemaining: 30 },
  teamDigests: true,
  escalationDays: 5,
};

const BAD_ADDRESS = 'is not an e-mail address. Enter addresses like name@example.com, separated by commas.';

/** The field a form is refused on, and the sentence the dialog shows under it. */
function refusal(form: NotificationForm, current = SAVED): { field: unknown; message: string } {
  try {
    notificationsFromForm(form, current);
  } catch (error) {
    return { field: (error as { field?: unknown }).field, message: (error as Error).message };
  }
  throw new Error(`${JSON.stringify(form)} was accepted`);
}

function recipientsOf(typed: string): string[] {
  return notificationsFromForm({ notifyRecipients: typed }, SAVED).recipients;
}

describe('recipients', () => {
  test('are read one per line or separated by commas, semicolons or spaces, lower-cased, each once', () => {
    expect(
      recipientsOf('Anna@Example.com;\n  bob@example.org , anna@example.COM\tcarl@mail.example.co.uk;;'),
    ).toEqual(['anna@example.com', 'bob@example.org', 'carl@mail.example.co.uk']);
  });

  test('accept the plain addresses people have', () => {
    for (const address of [
      'a@b.co',
      'first.last+digest@sub.example.com',
      "o'neil@example.ie",
      'x_y-z@ex-ample.org',
    ]) {
      expect(recipientsOf(address)).toEqual([address]);
    }
  });

  test.each([
    ['no @', 'safety.example.com'],
    ['two @', 'safety@team@example.com'],
    ['nothing before the @', '@example.com'],
    ['a domain without a dot', 'safety@localhost'],
    ['a domain ending in a dot', 'safety@example.'],
    ['a domain starting with a dot', 'safety@.example.com'],
    ['two dots in a row in the domain', 'safety@example..com'],
    ['a display name in angle brackets', '<safety@example.com>'],
    ['quotes', '"safety"@example.com'],
    ['parentheses', 'safety(team)@example.com'],
    ['square brackets', 'safety@[10.0.0.1]'],
    ['a backslash', 'safe\\ty@example.com'],
    ['brackets in the domain', 'safety@exa<mple>.com'],
    ['quotes in the domain', 'safety@"example".com'],
    ['parentheses in the domain', 'safety@example.(com)'],
    ['a backslash in the domain', 'safety@example.c\\om'],
  ])('refuse an address with %s, quoting it, next to the field', (_what, address) => {
    expect(refusal({ notifyRecipients: `ok@example.com, ${address}` })).toEqual({
      field: 'notifyRecipients',
      message: `"${address}" ${BAD_ADDRESS}`,
    });
  });

  test('quote only the first 80 characters of a long wrong address', () => {
    const long = 'x'.repeat(120);
    expect(refusal({ notifyRecipients: long }).message).toBe(`"${'x'.repeat(80)}" ${BAD_ADDRESS}`);
  });

  test('at most 50 different addresses: Google sends a message to no more', () => {
    const addresses = (count: number) => Array.from({ length: count }, (_, index) => `p${index}@example.com`);
    expect(recipientsOf(addresses(50).join(', '))).toHaveLength(50);
    // The same address typed twice counts once.
    expect(recipientsOf([...addresses(50), 'P0@example.com'].join(', '))).toHaveLength(50);
    expect(refusal({ notifyRecipients: addresses(51).join(', ') })).toEqual({
      field: 'notifyRecipients',
      message:
        'Enter at most 50 addresses (Google sends a message to no more); a group address counts as one.',
    });
  });

  test('none while mail is on is refused; none with "Send" Off is kept', () => {
    const none = {
      field: 'notifyRecipients',
      message: 'Enter at least one e-mail address to send notifications to, or set "Send" to Off.',
    };
    expect(refusal({ notifyRecipients: ' , ', notifyFrequency: 'daily' })).toEqual(none);
    expect(refusal({ notifyFrequency: 'each-run' }, { ...SAVED, recipients: [] })).toEqual(none);
    expect(notificationsFromForm({ notifyRecipients: '', notifyFrequency: 'off' }, SAVED)).toMatchObject({
      recipients: [],
      frequency: 'off',
    });
  });
});

describe('frequency and topics', () => {
  test('each frequency the dialog offers is saved', () => {
    for (const frequency of ['off', 'each-run', 'daily', 'weekly']) {
      expect(notificationsFromForm({ notifyFrequency: frequency }, SAVED).frequency).toBe(frequency);
    }
  });

  test('an unknown frequency is refused next to it', () => {
    expect(refusal({ notifyFrequency: 'hourly' })).toEqual({
      field: 'notifyFrequency',
      message: 'Choose Off, With each scheduled run that changes something, Daily or Weekly.',
    });
  });

  test('topics are kept in the order the dialog shows them, each once', () => {
    const topics = ['refreshFailures', 'expiringInspections', 'expiredInspections', 'refreshFailures'];
    expect(notificationsFromForm({ notifyTopics: topics }, SAVED).topics).toEqual([
      'expiredInspections',
      'expiringInspections',
      'refreshFailures',
    ]);
  });

  test('a topic the dialog does not offer, or topics that are no list, are refused', () => {
    const unknown = { field: 'notifyFrequency', message: 'Choose what to include from the boxes shown.' };
    expect(refusal({ notifyTopics: ['expiredInspections', 'everything'] })).toEqual(unknown);
    expect(refusal({ notifyTopics: 'expiredInspections' as unknown as string[] })).toEqual(unknown);
  });

  test('no topic while mail is on is refused; none with "Send" Off is kept', () => {
    expect(refusal({ notifyTopics: [], notifyFrequency: 'daily' })).toEqual({
      field: 'notifyFrequency',
      message: 'Tick at least one thing to include, or set "Send" to Off.',
    });
    expect(notificationsFromForm({ notifyTopics: [], notifyFrequency: 'off' }, SAVED).topics).toEqual([]);
  });
});

describe('personal data, other domains and the mail share', () => {
  test('each personal-data choice is saved; another is refused', () => {
    expect(notificationsFromForm({ notifyPersonalData: 'counts' }, SAVED).personalData).toBe('counts');
    expect(
      notificationsFromForm({ notifyPersonalData: 'names' }, { ...SAVED, personalData: 'counts' })
        .personalData,
    ).toBe('names');
    expect(refusal({ notifyPersonalData: 'everything' })).toEqual({
      field: 'notifyPersonalData',
      message: 'Choose "Counts and links only" or "Names and items".',
    });
  });

  test('addresses outside the domain: the box ticked or clear; anything else refused', () => {
    expect(notificationsFromForm({ notifyAllowOutside: false }, SAVED).allowOutsideDomain).toBe(false);
    expect(
      notificationsFromForm({ notifyAllowOutside: true }, { ...SAVED, allowOutsideDomain: false })
        .allowOutsideDomain,
    ).toBe(true);
    expect(refusal({ notifyAllowOutside: 'yes' as unknown as boolean })).toEqual({
      field: 'notifyAllowOutside',
      message: 'Tick the box or leave it clear.',
    });
  });

  test('recipients a run: 1 to 50; share of the quota: 1 to 100 %', () => {
    const share = (form: NotificationForm) => notificationsFromForm(form, SAVED).mailShare;
    expect(share({ notifyMaxPerRun: 1, notifySharePercent: '1' })).toEqual({
      maxRecipientsPerRun: 1,
      percentOfRemaining: 1,
    });
    expect(share({ notifyMaxPerRun: '50', notifySharePercent: 100 })).toEqual({
      maxRecipientsPerRun: 50,
      percentOfRemaining: 100,
    });
    expect(refusal({ notifyMaxPerRun: 0 })).toEqual({
      field: 'notifyMaxPerRun',
      message: 'Enter a whole number from 1 to 50.',
    });
    expect(refusal({ notifyMaxPerRun: 51 }).field).toBe('notifyMaxPerRun');
    expect(refusal({ notifySharePercent: 0 })).toEqual({
      field: 'notifySharePercent',
      message: 'Enter a whole number from 1 to 100.',
    });
    expect(refusal({ notifySharePercent: 101 }).field).toBe('notifySharePercent');
  });
});

test('a form with no Notifications fields keeps everything saved', () => {
  expect(notificationsFromForm({}, SAVED)).toEqual(SAVED);
  // Empty number fields keep the saved share too.
  expect(notificationsFromForm({ notifyMaxPerRun: '', notifySharePercent: '' }, SAVED)).toEqual(SAVED);
});

test('mail goes out only with a frequency other than Off and someone to send it to', () => {
  expect(notificationsOn(SAVED)).toBe(true);
  expect(notificationsOn({ ...SAVED, frequency: 'off' })).toBe(false);
  expect(notificationsOn({ ...SAVED, recipients: [] })).toBe(false);
});

test('nothing saved reads as mail off, every topic, counts only, the own domain, 20 a run and 50 %', () => {
  const defaults: NotificationSettings = {
    recipients: [],
    frequency: 'off',
    topics: ALL_TOPICS,
    topicsOffered: ALL_TOPICS,
    personalData: 'counts',
    allowOutsideDomain: false,
    mailShare: { maxRecipientsPerRun: 20, percentOfRemaining: 50 },
    teamDigests: false,
    escalationDays: 0,
  };
  expect(withDefaults(null)).toEqual(defaults);
  expect(withDefaults(undefined)).toEqual(defaults);
  // Settings saved before the mail share and the personal-data choice existed.
  const older = {
    recipients: ['a@example.com'],
    frequency: 'daily' as const,
    topics: SAVED.topics,
    allowOutsideDomain: true,
  };
  expect(withDefaults(older)).toEqual({
    ...older,
    topicsOffered: ALL_TOPICS,
    personalData: 'counts',
    mailShare: defaults.mailShare,
    // Saved before team digests existed: none, and no escalation.
    teamDigests: false,
    escalationDays: 0,
  });
});

describe('team digests and their escalation', () => {
  test('the box ticked or clear is saved; anything else refused next to it', () => {
    expect(notificationsFromForm({ notifyTeams: false }, SAVED).teamDigests).toBe(false);
    expect(notificationsFromForm({ notifyTeams: true }, { ...SAVED, teamDigests: false }).teamDigests).toBe(
      true,
    );
    expect(refusal({ notifyTeams: 'yes' as unknown as boolean })).toEqual({
      field: 'notifyTeams',
      message: 'Tick the box or leave it clear.',
    });
  });

  test('escalation days: empty is never (0), a whole number from 0 to 365, left out keeps what is saved', () => {
    expect(notificationsFromForm({ notifyEscalationDays: '' }, SAVED).escalationDays).toBe(0);
    expect(notificationsFromForm({ notifyEscalationDays: '14' }, SAVED).escalationDays).toBe(14);
    expect(notificationsFromForm({ notifyEscalationDays: 365 }, SAVED).escalationDays).toBe(365);
    expect(notificationsFromForm({}, SAVED).escalationDays).toBe(5);
    for (const wrong of ['-1', '366', '2.5', 'soon']) {
      expect(refusal({ notifyEscalationDays: wrong })).toEqual({
        field: 'notifyEscalationDays',
        message: 'Enter a whole number from 0 to 365.',
      });
    }
  });
});

describe('"Never inspected", a topic added after settings were saved', () => {
  const before = (topics: NotificationSettings['topics']) =>
    withDefaults({ recipients: ['a@example.com'], frequency: 'daily', topics });

  test('is on where expired inspections were chosen, and off where they were not (alerts only stay alerts only)', () => {
    expect(before(['expiredInspections', 'expiredTrainings']).topics).toEqual([
      'expiredInspections',
      'neverInspected',
      'expiredTrainings',
    ]);
    expect(before(['refreshFailures']).topics).toEqual(['refreshFailures']);
    expect(before(['expiringInspections', 'expiringTrainings']).topics).toEqual([
      'expiringInspections',
      'expiringTrainings',
    ]);
  });

  test('once saved with it offered, the choice stands: unticked stays unticked', () => {
    const saved = notificationsFromForm(
      { notifyTopics: ['expiredInspections'] },
      before(['expiredInspections', 'expiredTrainings']),
    );
    expect(saved).toMatchObject({ topics: ['expiredInspections'], topicsOffered: ALL_TOPICS });
    expect(withDefaults(JSON.parse(JSON.stringify(saved))).topics).toEqual(['expiredInspections']);
  });
});
