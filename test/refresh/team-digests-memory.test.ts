/**
 * What the team digests remember between runs (src/refresh/team-notices.ts), as kept in one of the
 * schedule owner's user properties, whose values hold 9 KB: each notice's day and whether it was
 * escalated come back as written, only the oldest notices are kept beyond the bound (an escalation
 * then comes later, never sooner), and another schedule reads nothing.
 */
import type { CalendarDate } from '../../src/lib/dates';
import {
  decodeTeamMemory,
  encodeTeamMemory,
  type Notice,
  noticeId,
  type TeamMemory,
} from '../../src/refresh/team-notices';

/** Google's limit on one property value. */
const PROPERTY_VALUE_BYTES = 9 * 1024;
const TODAY = 20_000;

function memoryOf(count: number): TeamMemory {
  const notices = new Map<string, Notice>();
  for (let index = 0; index < count; index += 1) {
    notices.set(noticeId('lead@example.com', JSON.stringify([`U-${index}`, 'T-1'])), {
      day: (TODAY - index) as CalendarDate,
      escalated: index % 3 === 0,
    });
  }
  return { notices, pending: ['lead.b@example.com', 'lead.c@example.com'] };
}

test('each notice comes back with its day and whether it was escalated; the managers left over in their order', () => {
  const memory = memoryOf(40);
  const read = decodeTeamMemory(encodeTeamMemory('trigger-1', memory), 'trigger-1');
  expect(new Map([...read.notices].sort())).toEqual(new Map([...memory.notices].sort()));
  expect(read.pending).toEqual(['lead.b@example.com', 'lead.c@example.com']);
});

test('beyond 500 notices the oldest are kept, and the whole stays within one property value', () => {
  const memory = memoryOf(800);
  const saved = encodeTeamMemory('trigger-1', memory);
  expect(new TextEncoder().encode(saved).length).toBeLessThan(PROPERTY_VALUE_BYTES);
  const read = decodeTeamMemory(saved, 'trigger-1');
  expect(read.notices.size).toBe(500);
  const days = [...read.notices.values()].map((notice) => notice.day);
  // The 500 oldest of days TODAY - 799 … TODAY.
  expect(Math.min(...days)).toBe(TODAY - 799);
  expect(Math.max(...days)).toBe(TODAY - 300);
});

test('the managers left over are kept while they fit; another schedule reads nothing', () => {
  const many = Array.from({ length: 200 }, (_, index) => `manager.${index}@example.com`);
  const saved = encodeTeamMemory('trigger-1', { notices: new Map(), pending: many });
  expect(new TextEncoder().encode(saved).length).toBeLessThan(PROPERTY_VALUE_BYTES);
  const kept = decodeTeamMemory(saved, 'trigger-1').pending;
  expect(kept.length).toBeGreaterThan(50);
  expect(kept).toEqual(many.slice(0, kept.length));
  expect(decodeTeamMemory(saved, 'trigger-2')).toEqual({ notices: new Map(), pending: [] });
  expect(decodeTeamMemory(null, 'trigger-1')).toEqual({ notices: new Map(), pending: [] });
});
