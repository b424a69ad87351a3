/**
 * The Sync log's one line about team mail that waits (src/refresh/team-digests.ts): what went, what
 * the mail share left for later, which manager addresses wait for the owner and which are outside
 * their domain, each counted in words that agree with the count. The runs that write it are in
 * team-digests.test.ts; this is every form of the sentence.
 */
import { type TeamMailCounts, teamMailSummary } from '../../src/refresh/team-digests';

const NOTHING_WAITS: TeamMailCounts = {
  sent: 2,
  left: [],
  escalationsLeft: 0,
  waiting: 0,
  outside: 0,
  owner: 'owner@example.com',
  shareReason: '',
};

test('nothing waiting: no line, however many went', () => {
  expect(teamMailSummary(NOTHING_WAITS)).toBeNull();
  expect(teamMailSummary({ ...NOTHING_WAITS, sent: 0 })).toBeNull();
});

test('team digests left by the share: counted, with why the share is what it is', () => {
  expect(
    teamMailSummary({
      ...NOTHING_WAITS,
      left: ['lead@example.com'],
      shareReason: 'the share is 3 recipients',
    }),
  ).toBe(
    "Team digests sent: 2. 1 team digest left for the next run: this run's mail share is spent (the share is 3 recipients).",
  );
  expect(teamMailSummary({ ...NOTHING_WAITS, sent: 0, left: ['a@example.com', 'b@example.com'] })).toBe(
    "Team digests sent: 0. 2 team digests left for the next run: this run's mail share is spent.",
  );
});

test('escalations left by the share', () => {
  expect(teamMailSummary({ ...NOTHING_WAITS, escalationsLeft: 1 })).toBe(
    'Team digests sent: 2. 1 escalation left for a later run: the mail share is spent.',
  );
  expect(teamMailSummary({ ...NOTHING_WAITS, escalationsLeft: 3 })).toBe(
    'Team digests sent: 2. 3 escalations left for a later run: the mail share is spent.',
  );
});

test('manager addresses waiting for the owner to confirm them, named by the owner', () => {
  expect(teamMailSummary({ ...NOTHING_WAITS, waiting: 1 })).toBe(
    'Team digests sent: 2. 1 manager address on the People tab receives nothing until owner@example.com ' +
      'confirms it in Safety Sync → Settings… → Notifications.',
  );
  expect(teamMailSummary({ ...NOTHING_WAITS, waiting: 4, owner: '' })).toBe(
    'Team digests sent: 2. 4 manager addresses on the People tab receive nothing until the schedule’s owner ' +
      'confirms them in Safety Sync → Settings… → Notifications.',
  );
});

test('manager addresses outside the owner’s domain', () => {
  expect(teamMailSummary({ ...NOTHING_WAITS, outside: 1 })).toBe(
    'Team digests sent: 2. 1 manager address on the People tab is outside the domain of owner@example.com, ' +
      'whose account sends the mail: nothing goes there unless owner@example.com allows outside addresses.',
  );
  expect(teamMailSummary({ ...NOTHING_WAITS, outside: 2, owner: '' })).toBe(
    'Team digests sent: 2. 2 manager addresses on the People tab are outside the domain of the schedule’s owner, ' +
      'whose account sends the mail: nothing goes there unless the schedule’s owner allows outside addresses.',
  );
});

test('everything at once: one line, the share first, then the addresses', () => {
  expect(
    teamMailSummary({
      sent: 1,
      left: ['b@example.com'],
      escalationsLeft: 2,
      waiting: 1,
      outside: 1,
      owner: 'owner@example.com',
      shareReason: 'why',
    }),
  ).toBe(
    "Team digests sent: 1. 1 team digest left for the next run: this run's mail share is spent (why). " +
      '2 escalations left for a later run: the mail share is spent. ' +
      '1 manager address on the People tab receives nothing until owner@example.com confirms it in Safety Sync → Settings… → Notifications. ' +
      '1 manager address on the People tab is outside the domain of owner@example.com, whose account sends the mail: ' +
      'nothing goes there unless owner@example.com allows outside addresses.',
  );
});
