/** The generated data: determinism from the seed, tokens, and the realism the add-on must survive. */
import {
  SampleDataset,
  callApiJson,
  type Completion,
  type DatasetData,
  type EquipmentType,
} from '../support/sample-service';

const created: SampleDataset[] = [];

async function create(options: Parameters<typeof SampleDataset.create>[0] = {}): Promise<SampleDataset> {
  const dataset = await SampleDataset.create(options);
  created.push(dataset);
  return dataset;
}

afterAll(() => Promise.all(created.map((dataset) => dataset.delete())));

function isCalendarDate(dateNumber: number): boolean {
  const year = Math.floor(dateNumber / 10_000);
  const month = Math.floor(dateNumber / 100) % 100;
  const day = dateNumber % 100;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function epochDayOf(dateNumber: number): number {
  return (
    Date.UTC(Math.floor(dateNumber / 10_000), (Math.floor(dateNumber / 100) % 100) - 1, dateNumber % 100) /
    86_400_000
  );
}

const isNonAscii = (text: string) => [...text].some((character) => character.charCodeAt(0) > 0x7f);
const allSchedules = (types: EquipmentType[]) => types.flatMap((type) => type.schedules);
const allMetafields = (types: EquipmentType[]) => types.flatMap((type) => type.metafields);

describe('determinism', () => {
  test('the same options give the same data', async () => {
    const options = { seed: 7, completions: 800, equipmentTypes: 40 };
    const [first, second] = await Promise.all([create(options), create(options)]);
    expect(await second.data()).toEqual(await first.data());
  });

  test('another seed gives other data', async () => {
    const [one, two] = await Promise.all([create({ seed: 1 }), create({ seed: 2 })]);
    const [dataOne, dataTwo] = await Promise.all([one.data(), two.data()]);
    expect(dataTwo.completions).not.toEqual(dataOne.completions);
    expect(dataTwo.users).not.toEqual(dataOne.users);
    expect(dataTwo.equipmenttypes).not.toEqual(dataOne.equipmenttypes);
  });

  test('the data endpoint shows exactly what the API serves', async () => {
    const dataset = await create({ completions: 50 });
    const data = await dataset.data();
    const token = dataset.tokens.valid;
    const page = await callApiJson<{ completedtrainings: Completion[] }>('completedtrainings.list', {
      token,
    });
    expect(page.completedtrainings).toEqual(data.completions);
    const types = await callApiJson<{ equipmenttypes: EquipmentType[] }>('equipmenttypes.list', { token });
    expect(types.equipmenttypes).toEqual(data.equipmenttypes);
  });
});

describe('tokens', () => {
  test('are long, alphanumeric, distinct, and never shared by datasets of the same seed', async () => {
    const [first, second] = await Promise.all([create({ seed: 3 }), create({ seed: 3 })]);
    const tokens = [...Object.values(first.tokens), ...Object.values(second.tokens)];
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9]{24,}$/);
    expect(new Set(tokens).size).toBe(8);
    expect(first.id).not.toBe(second.id);
  });
});

describe('realism', () => {
  let data: DatasetData;

  beforeAll(async () => {
    const dataset = await create({ seed: 11, users: 60, completions: 3000, equipmentTypes: 300 });
    data = await dataset.data();
  });

  test('users have unique opaque ids, some zero-padded, and awkward names', () => {
    const ids = data.users.map((user) => user.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(ids.some((id) => /^0\d+$/.test(id))).toBe(true);
    const names = data.users.map((user) => user.name);
    for (const prefix of ['=', '+', '-', '@'])
      expect(names.some((name) => name.startsWith(prefix))).toBe(true);
    expect(names.some(isNonAscii)).toBe(true);
    expect(names).toEqual(expect.arrayContaining(['Zoë Ångström', '李雷']));
  });

  test('completions have the contract fields, valid dates and no exact duplicates', () => {
    const userIds = new Set(data.users.map((user) => user.id));
    const required = ['created', 'dateNumber', 'groupTraining_id', 'instructor_id', 'training_id', 'user_id'];
    const offenders = data.completions.filter(
      (completion) =>
        Object.keys(completion).sort().join() !==
          [
            ...required,
            ...('specialExpirationDateNumber' in completion ? ['specialExpirationDateNumber'] : []),
          ]
            .sort()
            .join() ||
        typeof completion.dateNumber !== 'number' ||
        !isCalendarDate(completion.dateNumber) ||
        (completion.specialExpirationDateNumber !== undefined &&
          !isCalendarDate(completion.specialExpirationDateNumber)) ||
        !Number.isInteger(completion.created) ||
        !userIds.has(completion.instructor_id),
    );
    expect(offenders).toEqual([]);
    const distinct = new Set(data.completions.map((completion) => JSON.stringify(completion)));
    expect(distinct.size).toBe(data.completions.length);
  });

  test('dates span several years and include Feb 29 and Dec 31', () => {
    const dates = data.completions.map((completion) => completion.dateNumber as number);
    const years = new Set(dates.map((date) => Math.floor(date / 10_000)));
    expect(years.size).toBeGreaterThanOrEqual(4);
    expect(dates.some((date) => date % 10_000 === 229)).toBe(true);
    expect(dates.some((date) => date % 10_000 === 1231)).toBe(true);
  });

  test('created is in seconds, on or up to three days after the completion date', () => {
    const offenders = data.completions.filter((completion) => {
      const daysAfter = completion.created / 86_400 - epochDayOf(completion.dateNumber as number);
      return daysAfter < 0 || daysAfter >= 4;
    });
    expect(offenders).toEqual([]);
  });

  test('about a third of completions have a special expiration date', () => {
    const share =
      data.completions.filter((completion) => completion.specialExpirationDateNumber !== undefined).length /
      data.completions.length;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.42);
  });

  test('people renew their trainings: repeat completions of the same training, a year or two apart', () => {
    const days = new Map<string, number[]>();
    for (const { user_id, training_id, dateNumber } of data.completions) {
      const key = JSON.stringify([user_id, training_id]);
      const n = Number(dateNumber);
      days.set(key, [
        ...(days.get(key) ?? []),
        Date.UTC(Math.floor(n / 10_000), (Math.floor(n / 100) % 100) - 1, n % 100),
      ]);
    }
    const repeated = [...days.values()].filter((list) => new Set(list).size > 1);
    expect(repeated.length / days.size).toBeGreaterThan(0.2);
    // Consecutive completions of a pair: some within a year (renewed on time), some later (lapsed first).
    const gaps = repeated.flatMap((list) => {
      const sorted = [...new Set(list)].sort((a, b) => a - b);
      return sorted.slice(1).map((day, index) => (day - sorted[index]!) / 86_400_000);
    });
    expect(gaps.some((gap) => gap >= 300 && gap <= 365)).toBe(true);
    expect(gaps.some((gap) => gap > 365 && gap <= 800)).toBe(true);
    // Refresher sessions: groups of several people who had all done that training before.
    const dayOf = (dateNumber: number | string) => {
      const n = Number(dateNumber);
      return Date.UTC(Math.floor(n / 10_000), (Math.floor(n / 100) % 100) - 1, n % 100);
    };
    const groups = new Map<string, typeof data.completions>();
    for (const completion of data.completions) {
      groups.set(completion.groupTraining_id, [
        ...(groups.get(completion.groupTraining_id) ?? []),
        completion,
      ]);
    }
    const list = [...groups.values()];
    // A refresher: some of one earlier session's people, on its training, on a later day.
    const refreshers = list.filter(
      (group) =>
        group.length >= 2 &&
        list.some(
          (earlier) =>
            earlier[0]!.training_id === group[0]!.training_id &&
            dayOf(earlier[0]!.dateNumber) < dayOf(group[0]!.dateNumber) &&
            group.every((completion) => earlier.some((other) => other.user_id === completion.user_id)),
        ),
    );
    expect(refreshers.length / list.length).toBeGreaterThan(0.08);
  });

  test('a few completions reference users that users.info does not know', () => {
    const userIds = new Set(data.users.map((user) => user.id));
    const unknown = data.completions.filter((completion) => !userIds.has(completion.user_id));
    expect(unknown.length).toBeGreaterThan(0);
    expect(unknown.length).toBeLessThan(data.completions.length * 0.02);
  });

  test('equipment types cover no and many metafields and schedules', () => {
    const metafieldCounts = data.equipmenttypes.map((type) => type.metafields.length);
    const scheduleCounts = data.equipmenttypes.map((type) => type.schedules.length);
    expect(Math.min(...metafieldCounts)).toBe(0);
    expect(Math.max(...metafieldCounts)).toBe(15);
    expect(Math.min(...scheduleCounts)).toBe(0);
    expect(Math.max(...scheduleCounts)).toBe(6);
    const titles = data.equipmenttypes.map((type) => type.title);
    expect(titles.some((title) => title.startsWith('='))).toBe(true);
    expect(titles.some(isNonAscii)).toBe(true);
    expect(new Set(data.equipmenttypes.map((type) => type.id)).size).toBe(data.equipmenttypes.length);
  });

  test('metafields are text, number or list, with list_id exactly on lists', () => {
    const metafields = allMetafields(data.equipmenttypes);
    expect(new Set(metafields.map((metafield) => metafield.type))).toEqual(
      new Set(['text', 'number', 'list']),
    );
    for (const metafield of metafields) {
      expect('list_id' in metafield).toBe(metafield.type === 'list');
      if (metafield.list_id !== undefined) expect(Number.isInteger(metafield.list_id)).toBe(true);
    }
  });

  test('schedule triggers follow the contract and cover the hard cases', () => {
    const schedules = allSchedules(data.equipmenttypes);
    const triggers = schedules.map((schedule) => schedule.trigger);
    for (const trigger of triggers) {
      expect(trigger.type).toBe('time');
      expect(['rolling', 'dom', 'dow']).toContain(trigger.timing);
      expect('timingDateNumber' in trigger).toBe(trigger.timing !== 'rolling');
      if (trigger.timingDateNumber !== undefined) expect(isCalendarDate(trigger.timingDateNumber)).toBe(true);
      expect(trigger.frequencyInDays).toBeGreaterThan(0);
      expect(trigger.expiringPeriodInDays).toBeGreaterThanOrEqual(0);
    }
    expect(new Set(triggers.map((trigger) => trigger.timing))).toEqual(new Set(['rolling', 'dom', 'dow']));
    const anchors = triggers.flatMap((trigger) => trigger.timingDateNumber ?? []);
    expect(anchors.some((anchor) => anchor % 100 >= 29)).toBe(true);
    expect(anchors.some((anchor) => anchor < 20200101)).toBe(true);
    expect(anchors.some((anchor) => anchor > 20290101)).toBe(true);
    const frequencies = new Set(triggers.map((trigger) => trigger.frequencyInDays));
    for (const frequency of [7, 14, 30, 45, 90, 365]) expect(frequencies.has(frequency)).toBe(true);
    expect(triggers.some((trigger) => trigger.expiringPeriodInDays === 0)).toBe(true);
    expect(schedules.some((schedule) => schedule.instructions === '')).toBe(true);
    expect(schedules.some((schedule) => schedule.instructions !== '')).toBe(true);
    expect(schedules.some((schedule) => schedule.form_id === undefined)).toBe(true);
    expect(schedules.some((schedule) => Number.isInteger(schedule.form_id))).toBe(true);
  });

  test('createdUnit milliseconds gives millisecond timestamps for the same days', async () => {
    const [inSeconds, inMilliseconds] = await Promise.all([
      create({ seed: 5, completions: 200 }),
      create({ seed: 5, completions: 200, createdUnit: 'milliseconds' }),
    ]);
    const [seconds, milliseconds] = await Promise.all([inSeconds.data(), inMilliseconds.data()]);
    milliseconds.completions.forEach((completion, index) => {
      expect(completion.created).toBeGreaterThan(1e11);
      expect(Math.floor(completion.created / 1000)).toBe(seconds.completions[index]!.created);
      expect(completion.dateNumber).toBe(seconds.completions[index]!.dateNumber);
    });
    for (const type of milliseconds.equipmenttypes) expect(type.created).toBeGreaterThan(1e11);
  });
});

describe('anomalies', () => {
  test('are absent by default and present on request, as well-formed JSON', async () => {
    const [clean, broken] = await Promise.all([
      create({ seed: 9, completions: 300 }),
      create({ seed: 9, completions: 300, anomalies: true }),
    ]);
    const [cleanData, brokenData] = await Promise.all([clean.data(), broken.data()]);
    const triggersOf = (data: DatasetData) =>
      allSchedules(data.equipmenttypes).map((schedule) => schedule.trigger);
    const anomalyChecks: Array<[string, (data: DatasetData) => boolean]> = [
      ['hourly timing', (data) => triggersOf(data).some((trigger) => trigger.timing === 'hourly')],
      ['meter trigger', (data) => triggersOf(data).some((trigger) => trigger.type === 'meter')],
      ['zero frequency', (data) => triggersOf(data).some((trigger) => trigger.frequencyInDays === 0)],
      [
        'negative frequency',
        (data) => triggersOf(data).some((trigger) => (trigger.frequencyInDays ?? 0) < 0),
      ],
      ['missing frequency', (data) => triggersOf(data).some((trigger) => !('frequencyInDays' in trigger))],
      [
        'date metafield',
        (data) => allMetafields(data.equipmenttypes).some((metafield) => metafield.type === 'date'),
      ],
      [
        'list without list_id',
        (data) =>
          allMetafields(data.equipmenttypes).some((field) => field.type === 'list' && !('list_id' in field)),
      ],
      [
        'string dateNumber',
        (data) => data.completions.some((completion) => typeof completion.dateNumber === 'string'),
      ],
    ];
    for (const [name, isPresent] of anomalyChecks) {
      expect([name, isPresent(cleanData)]).toEqual([name, false]);
      expect([name, isPresent(brokenData)]).toEqual([name, true]);
    }
    const typesOf = (data: DatasetData) => data.equipmenttypes.map((type) => type.id);
    expect(typesOf(brokenData)).toEqual(typesOf(cleanData));
  });
});

describe('size', () => {
  test('100,000 completions page through 1000 at a time', async () => {
    const dataset = await create({ completions: 100_000, users: 2000 });
    const token = dataset.tokens.valid;
    const page = await callApiJson<{ completedtrainings: Completion[]; paging: Record<string, number> }>(
      'completedtrainings.list',
      { token, limit: 1000, page: 100 },
    );
    expect(page.paging).toEqual({ page: 100, limit: 1000, total: 100_000, last_page: 100 });
    expect(page.completedtrainings).toHaveLength(1000);
  });
});
