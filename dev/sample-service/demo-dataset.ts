/**
 * The demo dataset: what `npm start` and `npm run sample-service -- --demo` show a newcomer. Unlike
 * the tests' adversarial data (dataset.ts), it reads like a real site's: people with ordinary names,
 * a catalogue of trainings a safety manager knows, equipment with the inspection schedules and
 * frequencies such equipment has. Everything is placed relative to the day it is given ("today"), so
 * that on any date it shows the same picture: most trainings valid, a few expiring within 30 days, a
 * few lapsed, and a few schedules that nobody has recorded an inspection for.
 *
 * The service never sends training names, validities or inspections done: those are what the manager
 * types into the workbook. DEMO_TRAININGS and demoLastInspections say what the demo types, so that the
 * workbook agrees with the completions generated here.
 */
import { dateNumberOfEpochDay, epochDay, epochSecondsOfDay } from './calendar';
import {
  CompletionFactory,
  type Completion,
  type EquipmentType,
  type GeneratedData,
  type Metafield,
  type Schedule,
  type User,
  sortNewestFirst,
} from './dataset';
import { SeededRandom } from './random';

export interface DemoTraining {
  id: string;
  name: string;
  /** Calendar months a completion stays valid; null: it never expires. */
  validityMonths: number | null;
  required: boolean;
  /** The share of people who hold it: everyone for a required training. */
  heldBy: number;
}

/** The catalogue the demo's manager fills in on the Trainings tab. */
export const DEMO_TRAININGS: readonly DemoTraining[] = [
  { id: 'TR-101', name: 'Site safety induction', validityMonths: null, required: true, heldBy: 1 },
  { id: 'TR-102', name: 'Fire safety awareness', validityMonths: 12, required: true, heldBy: 1 },
  { id: 'TR-103', name: 'Manual handling', validityMonths: 36, required: true, heldBy: 1 },
  { id: 'TR-104', name: 'Hazardous substances (COSHH)', validityMonths: 24, required: false, heldBy: 0.5 },
  { id: 'TR-105', name: 'Working at height', validityMonths: 24, required: false, heldBy: 0.4 },
  { id: 'TR-106', name: 'Forklift operation', validityMonths: 36, required: false, heldBy: 0.25 },
  { id: 'TR-107', name: 'First aid at work', validityMonths: 36, required: false, heldBy: 0.2 },
  { id: 'TR-108', name: 'Fire warden', validityMonths: 36, required: false, heldBy: 0.15 },
  {
    id: 'TR-109',
    name: 'Mobile elevating work platforms',
    validityMonths: 60,
    required: false,
    heldBy: 0.15,
  },
  { id: 'TR-110', name: 'Confined space entry', validityMonths: 12, required: false, heldBy: 0.1 },
];

/** With fewer people, too few trainings are held to deal each state its minimum (TRAINING_STATES). */
export const DEMO_MIN_PEOPLE = 10;

/**
 * Where a held training that expires stands today. The shares are of such pairs; the days are the
 * expiry's distance from today, chosen with a margin for the moves below (a completion is moved back
 * to its training's last session, up to 13 days; a month end shortens months by up to 3 days).
 */
const TRAINING_STATES = {
  expiring: { share: 0.07, minimum: 6, days: [19, 27] },
  lapsedRecently: { share: 0.09, minimum: 3, days: [-150, -5] },
  lapsedLongAgo: { share: 0.03, minimum: 1, days: [-700, -181] },
} as const;
/** A valid training expires at least this many days after today: beyond any expiring window of 30. */
const VALID_FROM_DAYS = 50;
/** Each training is held every other week. */
const SESSION_EVERY_DAYS = 14;
/** How far back a person's history of a training goes, at most. */
const MAX_TENURE_DAYS = 6 * 365;
/** A refresher is taken up to this many days before the previous completion expires. */
const RENEWED_EARLY_DAYS = 25;

const FIRST_NAMES = [
  'Amelia',
  'Ben',
  'Chloe',
  'Daniel',
  'Ella',
  'Farid',
  'Grace',
  'Hannah',
  'Isaac',
  'Jasmine',
  'Karim',
  'Laura',
  'Marek',
  'Nadia',
  'Oliver',
  'Priya',
  'Rhys',
  'Sofia',
  'Tom',
  'Uma',
  'Victor',
  'Wei',
  'Yusuf',
  'Zoë',
  'Aoife',
  'Bogdan',
  'Carmen',
  'Dev',
  'Eilidh',
  'Joanna',
];
const LAST_NAMES = [
  'Adams',
  'Bailey',
  'Clarke',
  'Davies',
  'Evans',
  'Fischer',
  'García',
  'Hughes',
  'Iqbal',
  'Jones',
  'Kowalski',
  'Lewis',
  'Murphy',
  'Nowak',
  'Owen',
  'Patel',
  'Quinn',
  'Roberts',
  'Singh',
  'Taylor',
  'Walsh',
  'Wright',
  'Young',
  'Chen',
  'Okafor',
  'Novák',
  'Rossi',
  'Byrne',
  'Khan',
  'Mensah',
];

interface DemoSchedule {
  name: string;
  timing: 'rolling' | 'dom' | 'dow';
  frequencyInDays: number;
  expiringPeriodInDays: number;
  instructions: string;
  doRequireAttachments: boolean;
}

interface DemoEquipment {
  title: string;
  metafields: Array<Pick<Metafield, 'name' | 'type'>>;
  schedules: DemoSchedule[];
}

const SERIAL: Pick<Metafield, 'name' | 'type'> = { name: 'Serial number', type: 'text' };
const LOCATION: Pick<Metafield, 'name' | 'type'> = { name: 'Location', type: 'list' };
const MAKER: Pick<Metafield, 'name' | 'type'> = { name: 'Manufacturer', type: 'text' };
const CAPACITY: Pick<Metafield, 'name' | 'type'> = { name: 'Safe working load (kg)', type: 'number' };

function weekly(name: string, instructions: string): DemoSchedule {
  return {
    name,
    timing: 'dow',
    frequencyInDays: 7,
    expiringPeriodInDays: 1,
    instructions,
    doRequireAttachments: false,
  };
}
function monthly(name: string, instructions: string): DemoSchedule {
  return {
    name,
    timing: 'dom',
    frequencyInDays: 30,
    expiringPeriodInDays: 7,
    instructions,
    doRequireAttachments: false,
  };
}
function everyDays(name: string, frequencyInDays: number, instructions: string): DemoSchedule {
  const expiringPeriodInDays = frequencyInDays >= 365 ? 30 : frequencyInDays >= 180 ? 14 : 7;
  return {
    name,
    timing: 'rolling',
    frequencyInDays,
    expiringPeriodInDays,
    instructions,
    doRequireAttachments: frequencyInDays >= 180,
  };
}

const DEMO_EQUIPMENT: readonly DemoEquipment[] = [
  {
    title: 'Forklift truck',
    metafields: [SERIAL, MAKER, CAPACITY, LOCATION],
    schedules: [
      weekly(
        'Weekly pre-use check',
        'Check tyres, forks, chains, horn and lights; take a defective truck out of use.',
      ),
      everyDays('Thorough examination', 365, 'By a competent person; attach the report.'),
    ],
  },
  {
    title: 'Scissor lift',
    metafields: [SERIAL, MAKER, CAPACITY],
    schedules: [
      weekly('Weekly inspection', 'Check guard rails, controls and the emergency lowering.'),
      everyDays('Thorough examination', 182, 'Every six months by a competent person; attach the report.'),
    ],
  },
  {
    title: 'Fire extinguisher',
    metafields: [SERIAL, LOCATION],
    schedules: [
      monthly(
        'Monthly visual check',
        'Pin and seal intact, gauge in the green, no damage, sign unobstructed.',
      ),
      everyDays('Annual service', 365, 'By the fire equipment contractor.'),
    ],
  },
  {
    title: 'Fire alarm system',
    metafields: [MAKER, LOCATION],
    schedules: [
      weekly('Weekly call point test', 'Test a different call point each week and log which one.'),
      {
        ...everyDays('Six-monthly service', 182, 'By the alarm contractor; attach the certificate.'),
        timing: 'dom',
      },
    ],
  },
  {
    title: 'Emergency lighting',
    metafields: [LOCATION],
    schedules: [
      monthly('Monthly flick test', 'Switch to battery and check every fitting lights.'),
      everyDays('Annual duration test', 365, 'Three-hour discharge test; attach the results.'),
    ],
  },
  {
    title: 'Defibrillator (AED)',
    metafields: [SERIAL, LOCATION],
    schedules: [monthly('Monthly readiness check', 'Status light green, pads in date, battery in date.')],
  },
  {
    title: 'First aid kit',
    metafields: [LOCATION],
    schedules: [monthly('Monthly contents check', 'Restock used items and replace anything out of date.')],
  },
  {
    title: 'Eye-wash station',
    metafields: [LOCATION],
    schedules: [weekly('Weekly flush', 'Run the water for three minutes and check the flow.')],
  },
  {
    title: 'Safety harness and lanyard',
    metafields: [SERIAL, MAKER],
    schedules: [
      everyDays('Detailed inspection', 182, 'Webbing, stitching and connectors; retire on any defect.'),
    ],
  },
  {
    title: 'Portable ladder',
    metafields: [SERIAL, LOCATION],
    schedules: [
      everyDays('Detailed inspection', 90, 'Stiles, feet and rungs; tag the ladder with the date.'),
    ],
  },
  {
    title: 'Mobile scaffold tower',
    metafields: [SERIAL, MAKER],
    schedules: [weekly('Weekly inspection', 'Check braces, platforms, guard rails and castor brakes.')],
  },
  {
    title: 'Overhead crane',
    metafields: [SERIAL, MAKER, CAPACITY, LOCATION],
    schedules: [
      monthly('Monthly inspection', 'Hooks, wire ropes, limit switches and the pendant control.'),
      everyDays('Thorough examination', 365, 'By a competent person; attach the report.'),
    ],
  },
  {
    title: 'Air compressor',
    metafields: [SERIAL, MAKER],
    schedules: [
      everyDays(
        'Written scheme examination',
        365,
        'Pressure vessel and safety valve, per the written scheme.',
      ),
    ],
  },
  {
    title: 'Local exhaust ventilation',
    metafields: [LOCATION],
    schedules: [
      everyDays('Thorough examination and test', 425, 'At least every 14 months; attach the report.'),
    ],
  },
  {
    title: 'Portable electrical equipment',
    metafields: [LOCATION],
    schedules: [everyDays('Portable appliance test', 365, 'Test, label and list every item.')],
  },
  {
    title: 'Pallet racking',
    metafields: [LOCATION, CAPACITY],
    schedules: [
      monthly('Monthly visual inspection', 'Look for bent uprights, missing beam locks and overloading.'),
      everyDays('Expert inspection', 365, 'By a SEMA-approved inspector.'),
    ],
  },
  {
    title: 'Gas detector',
    metafields: [SERIAL, MAKER],
    schedules: [everyDays('Calibration', 182, 'Calibrate with test gas; attach the certificate.')],
  },
  {
    title: 'Spill kit',
    metafields: [LOCATION],
    schedules: [everyDays('Quarterly check', 90, 'Contents complete and the seal intact.')],
  },
];

/** The list every Location metafield uses. */
const LOCATION_LIST_ID = 3;

/** The demo's seed and size, as `npm start` and `npm run sample-service -- --demo` show it. */
export const DEMO_DATASET_OPTIONS = { seed: 2026, users: 80 } as const;

export interface DemoOptions {
  seed: number;
  /** How many people; at least DEMO_MIN_PEOPLE. */
  users: number;
  /** The day the demo is seen on, YYYY-MM-DD. */
  today: string;
}

function epochDayOfIsoDate(isoDate: string): number {
  const match = /^(\d{4})-(\d\d)-(\d\d)$/.exec(isoDate);
  if (!match) throw new Error(`Not a YYYY-MM-DD date: ${JSON.stringify(isoDate)}`);
  return epochDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

function isoDateOfEpochDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** `months` calendar months after `day` (negative: before); a day the month lacks becomes its last. */
function addMonthsToEpochDay(day: number, months: number): number {
  const date = new Date(day * 86_400_000);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay)) / 86_400_000;
}

export function generateDemoData(options: DemoOptions): GeneratedData {
  if (!Number.isInteger(options.users) || options.users < DEMO_MIN_PEOPLE) {
    throw new Error(`A demo dataset needs at least ${DEMO_MIN_PEOPLE} people, not ${options.users}.`);
  }
  const today = epochDayOfIsoDate(options.today);
  const users = demoUsers(options);
  const completions = demoCompletions(options, today, users);
  return {
    users,
    completions,
    equipmentTypes: demoEquipmentTypes(options, today),
    // Completions added later (the admin API's mutations) continue with the same people and trainings.
    completionFactory: new CompletionFactory(
      new SeededRandom(options.seed, 'demo-additions'),
      'seconds',
      users.map((user) => user.id),
      DEMO_TRAININGS.map((training) => training.id),
      new SeededRandom(options.seed, 'demo-renewals'),
    ),
  };
}

/** Employee numbers as ids; distinct names, drawn from first and last names that go together anywhere. */
function demoUsers(options: DemoOptions): User[] {
  const random = new SeededRandom(options.seed, 'demo-users');
  const names = new Set<string>();
  const users: User[] = [];
  for (let index = 0; index < options.users; index++) {
    let name: string;
    do name = `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
    while (names.has(name) && names.size < FIRST_NAMES.length * LAST_NAMES.length);
    names.add(name);
    users.push({ id: `E${String(1040 + index * 7).padStart(5, '0')}`, name });
  }
  return users;
}

interface HeldPair {
  user: User;
  training: DemoTraining;
}

/**
 * `total` states in a shuffled order: each state of `shares` its share of the total (at least its
 * minimum), the others `rest`. Fixed counts dealt, not drawn one by one: the proportions are the same
 * on every date and for every seed.
 */
function deal<State extends string, Rest extends string>(
  shares: Record<State, { share: number; minimum: number }>,
  total: number,
  rest: Rest,
  random: SeededRandom,
): Array<State | Rest> {
  const deck: Array<State | Rest> = [];
  for (const [state, { share, minimum }] of Object.entries(shares) as Array<
    [State, { share: number; minimum: number }]
  >) {
    const count = Math.max(minimum, Math.round(share * total));
    for (let k = 0; k < count; k++) deck.push(state);
  }
  while (deck.length < total) deck.push(rest);
  for (let index = deck.length - 1; index > 0; index--) {
    const other = random.int(0, index);
    [deck[index], deck[other]] = [deck[other]!, deck[index]!];
  }
  return deck;
}

function demoCompletions(options: DemoOptions, today: number, users: readonly User[]): Completion[] {
  const random = new SeededRandom(options.seed, 'demo-completions');
  const pairs: HeldPair[] = [];
  for (const user of users) {
    for (const training of DEMO_TRAININGS) {
      if (training.required || random.chance(training.heldBy)) pairs.push({ user, training });
    }
  }
  // Where each held training that expires stands today.
  const expiringPairs = pairs.filter((pair) => pair.training.validityMonths !== null).length;
  const states = deal(TRAINING_STATES, expiringPairs, 'valid', random);
  const tenure = new Map(users.map((user) => [user.id, random.int(60, MAX_TENURE_DAYS)]));
  const sessions = new SessionBook(today, users);
  let dealt = 0;
  for (const { user, training } of pairs) {
    const joined = today - tenure.get(user.id)!;
    if (training.validityMonths === null) {
      sessions.attend(user.id, training, Math.min(today - 1, joined + random.int(0, 20)));
      continue;
    }
    const state = states[dealt++]!;
    const [from, to] =
      state === 'valid'
        ? [VALID_FROM_DAYS, addMonthsToEpochDay(today, training.validityMonths) - today - 5]
        : TRAINING_STATES[state].days;
    const expiry = today + random.int(from, to);
    let completed = sessions.attend(user.id, training, addMonthsToEpochDay(expiry, -training.validityMonths));
    // Earlier completions: each was renewed (by the one after it) a little before it expired.
    for (;;) {
      const earlier =
        addMonthsToEpochDay(completed, -training.validityMonths) + random.int(0, RENEWED_EARLY_DAYS);
      if (earlier < joined || earlier >= completed) break;
      completed = sessions.attend(user.id, training, earlier);
    }
  }
  return sessions.completions();
}

/**
 * Trainings are held as sessions, each training every other week on its own weekday: a person
 * attends the last session on or before the day drawn, and the people of one session share its
 * group, instructor and entry time.
 */
class SessionBook {
  private readonly groups = new Map<string, { id: string; created: number; instructor: string }>();
  private readonly made: Completion[] = [];

  constructor(
    private readonly today: number,
    private readonly users: readonly User[],
  ) {}

  /** Books the person on the session on or before `day` (never today or later); returns its day. */
  attend(userId: string, training: DemoTraining, day: number): number {
    const index = DEMO_TRAININGS.indexOf(training);
    const weekday = 1 + (index % 5);
    // Epoch day 0 was a Thursday (weekday 4, counting Sunday as 0): the sessions fall on the days
    // 4 - weekday + 7 × (index % 2) modulo 14, so that trainings alternate weeks.
    const firstSession = weekday - 4 + 7 * (index % 2);
    let session = Math.min(day, this.today - 1);
    session -= (((session - firstSession) % SESSION_EVERY_DAYS) + SESSION_EVERY_DAYS) % SESSION_EVERY_DAYS;
    const key = `${training.id} ${session}`;
    let group = this.groups.get(key);
    if (!group) {
      group = {
        id: `GT-${String(this.groups.size + 1).padStart(5, '0')}`,
        // Entered the afternoon of the session, a minute apart per session so the order is stable.
        created: epochSecondsOfDay(session) + 15 * 3600 + (this.groups.size % 120) * 60,
        instructor: this.users[index % Math.min(4, this.users.length)]!.id,
      };
      this.groups.set(key, group);
    }
    this.made.push({
      user_id: userId,
      training_id: training.id,
      created: group.created,
      dateNumber: dateNumberOfEpochDay(session),
      instructor_id: group.instructor,
      groupTraining_id: group.id,
    });
    return session;
  }

  completions(): Completion[] {
    return sortNewestFirst([...this.made]);
  }
}

function demoEquipmentTypes(options: DemoOptions, today: number): EquipmentType[] {
  const random = new SeededRandom(options.seed, 'demo-equipment');
  let metafieldsMade = 0;
  let schedulesMade = 0;
  return DEMO_EQUIPMENT.map((equipment, index): EquipmentType => {
    const metafields = equipment.metafields.map((field): Metafield => {
      const metafield: Metafield = { id: `MF-${++metafieldsMade}`, ...field };
      if (field.type === 'list') metafield.list_id = LOCATION_LIST_ID;
      return metafield;
    });
    const schedules = equipment.schedules.map((schedule): Schedule => {
      const formId = schedule.doRequireAttachments ? 300 + schedulesMade : undefined;
      return {
        id: `SCH-${String(++schedulesMade).padStart(3, '0')}`,
        name: schedule.name,
        ...(formId === undefined ? {} : { form_id: formId }),
        instructions: schedule.instructions,
        doRequireAttachments: schedule.doRequireAttachments,
        trigger: {
          type: 'time',
          timing: schedule.timing,
          // Calendar schedules started on a day in the last few years.
          ...(schedule.timing === 'rolling'
            ? {}
            : { timingDateNumber: dateNumberOfEpochDay(today - random.int(200, 1500)) }),
          expiringPeriodInDays: schedule.expiringPeriodInDays,
          frequencyInDays: schedule.frequencyInDays,
        },
      };
    });
    return {
      id: `EQ-${String(index + 1).padStart(3, '0')}`,
      title: equipment.title,
      created: epochSecondsOfDay(today - random.int(400, 2000)) + random.int(8 * 3600, 17 * 3600),
      metafields,
      schedules,
    };
  });
}

/** Where an inspection schedule stands once the demo's manager has typed its last inspection. */
const INSPECTION_STATES = {
  neverInspected: { share: 0.12, minimum: 3 },
  overdue: { share: 0.15, minimum: 2 },
  dueSoon: { share: 0.15, minimum: 2 },
} as const;

/**
 * The "Last inspected" date the demo's manager types for each schedule (YYYY-MM-DD), or null for the
 * few nobody has recorded an inspection for. Most are recent enough to be up to date, a few are due
 * within their expiring period and a few are overdue, whatever today is.
 */
export function demoLastInspections(
  equipmentTypes: readonly EquipmentType[],
  options: Pick<DemoOptions, 'seed' | 'today'>,
): Map<string, string | null> {
  const random = new SeededRandom(options.seed, 'demo-inspections');
  const today = epochDayOfIsoDate(options.today);
  const schedules = equipmentTypes.flatMap((type) => type.schedules);
  const deck = deal(INSPECTION_STATES, schedules.length, 'upToDate', random);
  const lastInspected = new Map<string, string | null>();
  schedules.forEach((schedule, index) => {
    const frequency = schedule.trigger.frequencyInDays ?? 0;
    const period = schedule.trigger.expiringPeriodInDays;
    const state = deck[index]!;
    // Days since the last inspection. Overdue: more than a whole period ago, so the occurrence after
    // it has passed whatever the timing (a month is at most 31 days, six months 184).
    const daysAgo =
      state === 'overdue'
        ? frequency + random.int(5, 25)
        : state === 'dueSoon'
          ? frequency - random.int(0, period)
          : random.int(0, Math.max(0, frequency - period - 1));
    lastInspected.set(schedule.id, state === 'neverInspected' ? null : isoDateOfEpochDay(today - daysAgo));
  });
  return lastInspected;
}
