/**
 * The digest's rules at their edges (src/refresh/digest.ts), beside the seeded model of
 * test/refresh/digest-model.test.ts: when a digest may go at all (no recipients, Off, the day and
 * the week), what a plan says of itself (only what is new, or everything open), that "Refresh
 * failures" is no section of it, and how many open items "with each run" remembers (docs/admin.md,
 * Limits).
 */
import type { CalendarDate } from '../../src/lib/dates';
import {
  type DigestItem,
  type DigestMemory,
  EMPTY_MEMORY,
  isDigestDue,
  planDigest,
} from '../../src/refresh/digest';
import {
  DEFAULT_MAIL_SHARE,
  DIGEST_TOPICS,
  type DigestFrequency,
  type NotificationSettings,
} from '../../src/refresh/notification-settings';

const TODAY = 20_000 as CalendarDate;

function settings(
  frequency: DigestFrequency,
  changes: Partial<NotificationSettings> = {},
): NotificationSettings {
  return {
    recipients: ['safety@example.com'],
    frequency,
    topics: [...DIGEST_TOPICS],
    personalData: 'counts',
    allowOutsideDomain: false,
    mailShare: DEFAULT_MAIL_SHARE,
    teamDigests: false,
    escalationDays: 0,
    ...changes,
  };
}

function inspection(key: string, daysLeft: number): DigestItem {
  return {
    kind: 'inspection',
    status: daysLeft < 0 ? 'Expired' : 'Expiring',
    key,
    title: `Forklift: ${key}`,
    id: key,
    date: '',
    daysLeft,
    link: '',
  };
}

function lastDigestOn(day: number): DigestMemory {
  return { ...EMPTY_MEMORY, lastDay: day as CalendarDate };
}

describe('a digest is due', () => {
  test('never when Off or with nobody to send it to', () => {
    expect(isDigestDue(settings('off'), EMPTY_MEMORY, TODAY)).toBe(false);
    for (const frequency of ['each-run', 'daily', 'weekly'] as const) {
      expect(isDigestDue(settings(frequency, { recipients: [] }), EMPTY_MEMORY, TODAY)).toBe(false);
      expect(
        planDigest(settings(frequency, { recipients: [] }), [inspection('a', -3)], EMPTY_MEMORY, TODAY),
      ).toBeNull();
    }
  });

  test('with each run: any run, the same day as the last digest included', () => {
    expect(isDigestDue(settings('each-run'), lastDigestOn(TODAY), TODAY)).toBe(true);
  });

  test('daily: from the first run, then once a new day starts', () => {
    expect(isDigestDue(settings('daily'), EMPTY_MEMORY, TODAY)).toBe(true);
    expect(isDigestDue(settings('daily'), lastDigestOn(TODAY), TODAY)).toBe(false);
    expect(isDigestDue(settings('daily'), lastDigestOn(TODAY - 1), TODAY)).toBe(true);
  });

  test('weekly: from the first run, then seven days after the last digest, not six', () => {
    expect(isDigestDue(settings('weekly'), EMPTY_MEMORY, TODAY)).toBe(true);
    expect(isDigestDue(settings('weekly'), lastDigestOn(TODAY - 6), TODAY)).toBe(false);
    expect(isDigestDue(settings('weekly'), lastDigestOn(TODAY - 7), TODAY)).toBe(true);
  });
});

describe('a plan', () => {
  const open = [inspection('b', 5), inspection('a', -2)];

  test('with each run: only what is new, remembered for next time', () => {
    const plan = planDigest(settings('each-run'), open, EMPTY_MEMORY, TODAY)!;
    expect(plan).toMatchObject({ frequency: 'each-run', onlyNew: true, memory: { lastDay: TODAY } });
    expect(plan.memory.reported).not.toBe('');
    expect(plan.memory.openFingerprint).not.toBeNull();
  });

  test.each(['daily', 'weekly'] as const)('%s: everything open, nothing kept item by item', (frequency) => {
    const plan = planDigest(settings(frequency), open, EMPTY_MEMORY, TODAY)!;
    expect(plan).toMatchObject({ frequency, onlyNew: false, memory: { reported: '', lastDay: TODAY } });
    expect(plan.sections.map((section) => [section.topic, section.total])).toEqual([
      ['expiredInspections', 1],
      ['expiringInspections', 1],
    ]);
  });

  test('has no section for "Refresh failures", which are alerts of their own', () => {
    const plan = planDigest(settings('daily'), open, EMPTY_MEMORY, TODAY)!;
    expect(plan.sections.map((section) => section.topic)).not.toContain('refreshFailures');
  });
});

test('with each run, the 400 most urgent open items are remembered: one beyond them counts as new when the open set changes', () => {
  // 401 open items, as a tab may hold them: the least urgent (s400) first.
  const open = Array.from({ length: 401 }, (_, index) => inspection(`s${400 - index}`, 200 - index));
  const first = planDigest(settings('each-run'), open, EMPTY_MEMORY, TODAY)!;
  expect(first.sections.reduce((sum, section) => sum + section.total, 0)).toBe(401);
  // Six characters an item: what the spreadsheet's metadata has room for.
  expect(first.memory.reported).toHaveLength(400 * 6);

  const next = planDigest(settings('each-run'), [...open, inspection('new', -500)], first.memory, TODAY)!;
  const listed = next.sections.flatMap((section) => section.listed.map((item) => item.key));
  expect(listed).toEqual(['new', 's400']);
});

test('weekly: the same open items in another order are no change', () => {
  const first = planDigest(
    settings('weekly'),
    [inspection('a', -2), inspection('b', 5)],
    EMPTY_MEMORY,
    TODAY,
  )!;
  const reordered = [inspection('b', 5), inspection('a', -2)];
  expect(planDigest(settings('weekly'), reordered, first.memory, (TODAY + 7) as CalendarDate)).toBeNull();
});

describe('trainings in the actionable order', () => {
  function training(key: string, daysLeft: number): DigestItem {
    return { ...inspection(key, daysLeft), kind: 'training', title: '' };
  }
  // As Expiring trainings listed them before: the longest overdue first.
  const open = [
    training('left-2019', -2_401),
    training('left-2023', -373),
    training('lapsed-90-days-ago', -90),
    training('lapsed-91-days-ago', -91),
    training('lapsed-yesterday', -1),
    training('expires-in-20', 20),
    training('expires-today', 0),
  ];

  test('expiring first, soonest first; then lapses of the last 90 days, most recent first; older ones only counted', () => {
    const plan = planDigest(settings('daily'), open, EMPTY_MEMORY, TODAY)!;
    expect(
      plan.sections.map((section) => [
        section.topic,
        section.total,
        section.listed.map((item) => item.key),
        section.olderLapses,
      ]),
    ).toEqual([
      ['expiringTrainings', 2, ['expires-today', 'expires-in-20'], 0],
      ['expiredTrainings', 2, ['lapsed-yesterday', 'lapsed-90-days-ago'], 3],
    ]);
  });

  test('with each run, beyond the 400 remembered, older lapses are forgotten first: no listed item is listed again', () => {
    const expiring = Array.from({ length: 400 }, (_, index) => training(`in-${index + 1}`, index + 1));
    const older = training('left-2023', -373);
    const first = planDigest(settings('each-run'), [older, ...expiring], EMPTY_MEMORY, TODAY)!;
    const next = planDigest(
      settings('each-run'),
      [older, ...expiring, training('expires-today', 0)],
      first.memory,
      TODAY,
    )!;
    // The older lapse, never listed, is counted again; every expiring one stays reported.
    expect(
      next.sections.map((section) => [
        section.topic,
        section.listed.map((item) => item.key),
        section.olderLapses,
      ]),
    ).toEqual([
      ['expiringTrainings', ['expires-today'], 0],
      ['expiredTrainings', [], 1],
    ]);
  });

  test('with each run, an older lapse is counted once, then not again', () => {
    const first = planDigest(settings('each-run'), open, EMPTY_MEMORY, TODAY)!;
    expect(first.sections.find((section) => section.topic === 'expiredTrainings')!.olderLapses).toBe(3);
    const next = planDigest(
      settings('each-run'),
      [...open, training('lapsed-today', -1)],
      first.memory,
      TODAY,
    )!;
    expect(next.sections.map((section) => [section.topic, section.total, section.olderLapses])).toEqual([
      ['expiredTrainings', 1, 0],
    ]);
  });
});

test('schedules never inspected: a section of their own, after the dated inspections, in the tab’s order', () => {
  const never = (key: string): DigestItem => ({
    ...inspection(key, 0),
    status: 'No inspection recorded',
    daysLeft: null,
  });
  const plan = planDigest(
    settings('daily'),
    [never('b'), inspection('a', 3), never('c')],
    EMPTY_MEMORY,
    TODAY,
  )!;
  expect(plan.sections.map((section) => [section.topic, section.listed.map((item) => item.key)])).toEqual([
    ['expiringInspections', ['a']],
    ['neverInspected', ['b', 'c']],
  ]);
  const without = settings('daily', { topics: ['expiringInspections'] });
  expect(planDigest(without, [never('b')], EMPTY_MEMORY, TODAY)).toBeNull();
});

describe('a part the run does not know for today', () => {
  const training = (key: string, daysLeft: number): DigestItem => ({
    ...inspection(key, daysLeft),
    kind: 'training',
    title: '',
  });
  const yesterday = (TODAY - 1) as CalendarDate;
  const trainingsLeftOut = [{ kind: 'training' as const, computedFor: yesterday }];
  const open = [inspection('a', -2), training('t', 3)];

  test('is left out, and said; a later run that day that knows it sends the digest complete, once', () => {
    const partial = planDigest(settings('daily'), open, EMPTY_MEMORY, TODAY, trainingsLeftOut)!;
    expect(partial.sections.map((section) => section.topic)).toEqual(['expiredInspections']);
    expect(partial.leftOut).toEqual(trainingsLeftOut);
    expect(isDigestDue(settings('daily'), partial.memory, TODAY)).toBe(true);
    // Still not known: nothing more.
    expect(planDigest(settings('daily'), open, partial.memory, TODAY, trainingsLeftOut)).toBeNull();
    const complete = planDigest(settings('daily'), open, partial.memory, TODAY)!;
    expect(complete.sections.map((section) => section.topic)).toEqual([
      'expiredInspections',
      'expiringTrainings',
    ]);
    expect(isDigestDue(settings('daily'), complete.memory, TODAY)).toBe(false);
  });

  test('a digest of everything open goes to say so even with nothing else open', () => {
    const plan = planDigest(settings('weekly'), [training('t', 3)], EMPTY_MEMORY, TODAY, trainingsLeftOut)!;
    expect(plan).toMatchObject({ sections: [], leftOut: trainingsLeftOut });
  });

  test('is not news with each run, and what was reported of it stays reported', () => {
    const first = planDigest(settings('each-run'), open, EMPTY_MEMORY, TODAY)!;
    expect(planDigest(settings('each-run'), open, first.memory, TODAY, trainingsLeftOut)).toBeNull();
    const withNew = planDigest(
      settings('each-run'),
      [...open, inspection('b', 1)],
      first.memory,
      TODAY,
      trainingsLeftOut,
    )!;
    const after = planDigest(settings('each-run'), [...open, inspection('b', 1)], withNew.memory, TODAY);
    expect(after).toBeNull();
  });

  test('a kind the user did not choose is never said to be left out', () => {
    const only = settings('daily', { topics: ['expiredInspections'] });
    expect(planDigest(only, open, EMPTY_MEMORY, TODAY, trainingsLeftOut)!.leftOut).toEqual([]);
  });
});
