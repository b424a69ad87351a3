/**
 * The demo data, on any day and at any size: seeded sequences draw a day (2000 to 2099), a data
 * seed and a number of people, and check what a newcomer would see against the tests' own training
 * rules (training-oracle.ts): at least 5 trainings expiring within 30 days, a few lapsed but fewer
 * than a third of the person × training pairs, a few schedules never inspected, nothing dated after
 * today, and names a real site has. A failure names its seed and what it drew;
 * DEMO_DATASET_SEED=n replays one sequence.
 */
import {
  DEMO_MIN_PEOPLE,
  DEMO_TRAININGS,
  demoLastInspections,
  generateDemoData,
} from '../../dev/sample-service/demo-dataset';
import { seeded, sequenceSeeds } from '../support/seeded-random';
import { expected, isoOf } from '../support/training-oracle';
import { type Completion, SampleDataset } from '../support/sample-service';

const SEQUENCES = 60;
const EXPIRING_WINDOW_DAYS = 30;
/** A plain given name and family name, each capitalised: no formula-like or placeholder text. */
const PLAUSIBLE_NAME = /^\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+$/u;

function isoDay(epochDay: number): string {
  return new Date(epochDay * 86_400_000).toISOString().slice(0, 10);
}

function draw(seed: number) {
  const random = seeded(seed);
  return {
    today: isoDay(random.int(Date.UTC(2000, 0, 1) / 86_400_000, Date.UTC(2099, 11, 31) / 86_400_000)),
    dataSeed: random.int(1, 1_000_000),
    people: random.int(DEMO_MIN_PEOPLE, 200),
  };
}

const { seeds } = sequenceSeeds('DEMO_DATASET', SEQUENCES);

test.each(seeds)('sequence %i: the demo shows what a manager would recognise', (seed) => {
  const { today, dataSeed, people } = draw(seed);
  const context = `seed ${seed} (today ${today}, data seed ${dataSeed}, ${people} people); replay with DEMO_DATASET_SEED=${seed}`;
  const data = generateDemoData({ seed: dataSeed, users: people, today });
  const check = (holds: boolean, what: string) => {
    if (!holds) throw new Error(`${context}: ${what}`);
  };

  check(data.users.length === people, `${data.users.length} people, not ${people}`);
  check(new Set(data.users.map((user) => user.id)).size === people, 'two people share an id');
  check(new Set(data.users.map((user) => user.name)).size === people, 'two people share a name');
  const oddNames = data.users.filter((user) => !PLAUSIBLE_NAME.test(user.name));
  check(
    oddNames.length === 0,
    `names a real site would not have: ${oddNames.map((user) => user.name).join(', ')}`,
  );

  const late = data.completions.filter((completion) => isoOf(Number(completion.dateNumber)) >= today);
  check(late.length === 0, `${late.length} completions dated today or later`);

  const byPair = new Map<string, Completion[]>();
  for (const completion of data.completions) {
    const key = `${completion.user_id} ${completion.training_id}`;
    byPair.set(key, [...(byPair.get(key) ?? []), completion]);
  }
  const statuses = new Map<string, number>();
  for (const user of data.users) {
    for (const training of DEMO_TRAININGS) {
      const rule = { ...training, expiringDays: EXPIRING_WINDOW_DAYS };
      const { status } = expected(byPair.get(`${user.id} ${training.id}`) ?? [], rule, today);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  }
  const pairs = people * DEMO_TRAININGS.length;
  const expiring = statuses.get('Expiring') ?? 0;
  const lapsed = statuses.get('Expired') ?? 0;
  check(expiring >= 5, `only ${expiring} trainings expiring within ${EXPIRING_WINDOW_DAYS} days`);
  check(lapsed >= 3, `only ${lapsed} trainings lapsed`);
  check(lapsed < pairs / 3, `${lapsed} of ${pairs} pairs lapsed: a third or more`);
  const required = DEMO_TRAININGS.filter((training) => training.required).length;
  check(
    (statuses.get('Not done') ?? 0) <= pairs - people * required,
    'someone has not done a required training',
  );

  // Weekly to every 14 months (local exhaust ventilation), as such equipment is inspected.
  const frequencies = data.equipmentTypes.flatMap((type) =>
    type.schedules.map((schedule) => schedule.trigger.frequencyInDays!),
  );
  const odd = frequencies.filter((days) => days < 7 || days > 425);
  check(odd.length === 0, `inspection frequencies no site uses: ${odd.join(', ')} days`);

  const lastInspected = demoLastInspections(data.equipmentTypes, { seed: dataSeed, today });
  const schedules = data.equipmentTypes.flatMap((type) => type.schedules);
  check(lastInspected.size === schedules.length, 'a schedule has no entry');
  const never = [...lastInspected.values()].filter((date) => date === null).length;
  check(
    never >= 3 && never < schedules.length / 3,
    `${never} of ${schedules.length} schedules never inspected`,
  );
  const future = [...lastInspected.values()].filter((date) => date !== null && date > today);
  check(future.length === 0, `last inspections after today: ${future.join(', ')}`);
  // Rolling schedules fall due a frequency after their last inspection: some are overdue.
  const overdue = schedules.filter((schedule) => {
    const last = lastInspected.get(schedule.id);
    if (!last || schedule.trigger.timing !== 'rolling') return false;
    const due = Date.parse(last) + schedule.trigger.frequencyInDays! * 86_400_000;
    return due < Date.parse(today);
  });
  check(overdue.length <= schedules.length / 2, `${overdue.length} rolling schedules overdue: half or more`);
});

test('the same day and seed give the same data; another day moves the dates, not the picture', () => {
  const options = { seed: 7, users: 40, today: '2031-07-15' };
  expect(generateDemoData(options).completions).toEqual(generateDemoData(options).completions);
  const later = generateDemoData({ ...options, today: '2032-07-15' });
  expect(later.users).toEqual(generateDemoData(options).users);
  expect(later.completions[0]!.dateNumber).toBeGreaterThan(20320000);
});

test('a demo of fewer people than it needs is refused', () => {
  expect(() => generateDemoData({ seed: 1, users: DEMO_MIN_PEOPLE - 1, today: '2030-01-01' })).toThrow(
    `A demo dataset needs at least ${DEMO_MIN_PEOPLE} people, not ${DEMO_MIN_PEOPLE - 1}.`,
  );
});

describe('over the admin API', () => {
  it('makes the demo data for the day given in demoToday, and serves it to the API', async () => {
    const dataset = await SampleDataset.create({ seed: 3, users: 20, demoToday: '2030-05-20' });
    try {
      const data = await dataset.data();
      expect(data.users).toEqual(generateDemoData({ seed: 3, users: 20, today: '2030-05-20' }).users);
      expect(data.equipmenttypes.map((type) => type.title)).toContain('Forklift truck');
    } finally {
      await dataset.delete();
    }
  });

  it('refuses what the demo makes itself, and too few people', async () => {
    await expect(SampleDataset.create({ completions: 100, demoToday: '2030-05-20' })).rejects.toThrow(
      'Leave out completions: the demo data (demoToday) makes its own.',
    );
    await expect(SampleDataset.create({ users: 4, demoToday: '2030-05-20' })).rejects.toThrow(
      `Give the demo data (demoToday) at least ${DEMO_MIN_PEOPLE} users.`,
    );
    await expect(SampleDataset.create({ demoToday: '2030-02-30' })).rejects.toThrow('failed with 400');
  });
});
