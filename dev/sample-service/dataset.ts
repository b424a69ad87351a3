/**
 * The seeded data generator: users, completed trainings and equipment types shaped like the service's
 * records, with the awkward values real data has (leading zeros, non-ASCII, formula-like text, leap
 * days, users that no longer exist) and, on request, records that are well-formed JSON but break the
 * contract. The same options always give the same data.
 */
import {
  daysInMonth,
  dateNumberOfEpochDay,
  epochDay,
  epochDayOfDateNumber,
  epochSecondsOfDay,
} from './calendar';
import { SeededRandom } from './random';

export type CreatedUnit = 'seconds' | 'milliseconds';

export interface GeneratorOptions {
  seed: number;
  users: number;
  trainings: number;
  completions: number;
  equipmentTypes: number;
  createdUnit: CreatedUnit;
  /** Adds records that are valid JSON but violate the contract (see addAnomalies). */
  anomalies: boolean;
}

export interface User {
  id: string;
  name: string;
}

export interface Completion {
  user_id: string;
  training_id: string;
  created: number;
  /** A number by contract; a string only in the one anomaly record. */
  dateNumber: number | string;
  specialExpirationDateNumber?: number;
  instructor_id: string;
  groupTraining_id: string;
}

export interface Metafield {
  id: string;
  name: string;
  /** text, number or list by contract; 'date' only as an anomaly. */
  type: string;
  list_id?: number;
}

export interface ScheduleTrigger {
  /** 'time' by contract; 'meter' only as an anomaly. */
  type: string;
  /** rolling, dom or dow by contract; 'hourly' only as an anomaly. */
  timing: string;
  timingDateNumber?: number;
  expiringPeriodInDays: number;
  /** Always present by contract; absent only as an anomaly. */
  frequencyInDays?: number;
}

export interface Schedule {
  id: string;
  name: string;
  form_id?: number;
  instructions: string;
  doRequireAttachments: boolean;
  trigger: ScheduleTrigger;
}

export interface EquipmentType {
  id: string;
  title: string;
  created: number;
  metafields: Metafield[];
  schedules: Schedule[];
}

export interface GeneratedData {
  users: User[];
  /** Newest first, the order the service lists them in. */
  completions: Completion[];
  equipmentTypes: EquipmentType[];
  /** Continues the completion sequence for records added after creation. */
  completionFactory: CompletionFactory;
}

/** Completions fall in this range, which holds two leap days and several year ends. */
const FIRST_COMPLETION_DAY = epochDay(2019, 1, 1);
const LAST_COMPLETION_DAY = epochDay(2025, 6, 30);
/** The first groups land on these days, so that any dataset of a few records has them. */
const FORCED_COMPLETION_DAYS = [epochDay(2024, 2, 29), epochDay(2023, 12, 31), epochDay(2020, 2, 29)];
/** The group whose first attendee is a user unknown to users.info. */
const GROUP_WITH_UNKNOWN_USER = 2;
const UNKNOWN_USER_RATE = 0.004;
/** Ids that generateUsers can never produce (see userId). */
const UNKNOWN_USER_IDS = ['00000', '99999', 'u0'];
const MAX_GROUP_SIZE = 8;
const SPECIAL_EXPIRATION_RATE = 1 / 3;
/**
 * Trainings are renewed: this share of the groups are a refresher of an earlier group's training,
 * attended by some of its people, about one to two years later (some on time, some after it lapsed).
 */
const RENEWAL_RATE = 0.3;
const RENEWAL_AFTER_DAYS = { min: 300, max: 800 };
/**
 * Refreshers start once the data holds this many records: a dataset of a few dozen records is the
 * same as it was before renewals existed, so the small seeded scenarios tests build keep their data.
 */
const RENEWALS_AFTER_RECORDS = 50;

/** Schedule anchors span past and future years, so both cases exist whatever today is. */
const FIRST_ANCHOR_YEAR = 2018;
const LAST_ANCHOR_YEAR = 2030;
const FIRST_TYPE_CREATED_DAY = epochDay(2018, 1, 1);
const LAST_TYPE_CREATED_DAY = epochDay(2024, 12, 31);

const SPECIAL_USER_NAMES = [
  'Zoë Ångström',
  '李雷',
  '=HYPERLINK("http://example.com","x")',
  '+Plus Prefix',
  '-Minus Prefix',
  '@At Prefix',
];
const FIRST_NAMES = [
  'Anna',
  'Björn',
  'Chloé',
  'José',
  'Łukasz',
  'Aoife',
  'Mohammed',
  'Søren',
  'Priya',
  'Tomás',
];
const LAST_NAMES = [
  'Müller',
  "O'Brien",
  'García',
  'Nowak',
  'Smith',
  'Dvořák',
  'Nguyễn',
  'Öztürk',
  'Lee',
  'Kowalski',
];
const FULL_NAMES_WITHOUT_SPACE = ['韩梅梅', '山田太郎', 'Ólafur'];

const EQUIPMENT_TITLES = [
  'Forklift',
  'Scaffold tower',
  'Fire extinguisher (CO₂)',
  'Harness & lanyard',
  'Gabelstapler Größe 2',
  'Échelle télescopique',
  '叉车',
  'Defibrillator / AED',
  'Eye-wash station',
  '=Ladder',
  '+Hoist 500 kg',
  '-Spare parts cage',
  '@Site crane',
  'Pressure vessel',
];
const METAFIELD_NAMES = [
  'Serial number',
  'Manufacturer',
  'Capacity (kg)',
  'Größe',
  'Numéro de série',
  '型号',
  '=Location',
  'Last service',
  'Owner',
  'Notes',
  'Voltage',
  'Max height (m)',
];
const METAFIELD_TYPES = ['text', 'number', 'list'];
const SCHEDULE_NAMES = [
  'Daily pre-use check',
  'Weekly inspection',
  'Monthly inspection',
  'Quarterly service',
  'Annual certification',
  'Prüfung (jährlich)',
  'Contrôle mensuel',
  '月度检查',
  '=Safety check',
];
const INSTRUCTIONS = [
  '',
  'Check for visible damage.',
  'Verify the tag is current and sign the log.\nReport defects to the supervisor.',
  'Prüfen Sie die Dichtungen.',
];
const TIMINGS = ['rolling', 'dom', 'dow'];
const EXPIRING_PERIODS = [0, 0, 3, 7, 14, 30];
/** 45 and 180 are not whole months, which the dom rule has to round. */
const FREQUENCIES = [7, 14, 30, 45, 90, 180, 365];
const MAX_METAFIELDS = 15;
const MAX_SCHEDULES = 6;

export function generateData(options: GeneratorOptions): GeneratedData {
  const users = generateUsers(options);
  const completionFactory = new CompletionFactory(
    new SeededRandom(options.seed, 'completions'),
    options.createdUnit,
    users.map((user) => user.id),
    generateTrainingIds(options.trainings),
    new SeededRandom(options.seed, 'renewals'),
  );
  const completions = completionFactory.initialCompletions(options.completions);
  const equipmentTypes = generateEquipmentTypes(options);
  if (options.anomalies) addAnomalies(completions, equipmentTypes);
  return { users, completions, equipmentTypes, completionFactory };
}

/** Opaque ids in three shapes: zero-padded digits, plain digits and letters. */
function userId(index: number): string {
  switch (index % 3) {
    case 0:
      return String(index + 1).padStart(5, '0');
    case 1:
      return String(100_000 + index * 37);
    default:
      return 'u' + (index * 7919 + 12_345).toString(36);
  }
}

function generateUsers(options: GeneratorOptions): User[] {
  const random = new SeededRandom(options.seed, 'users');
  const users: User[] = [];
  for (let index = 0; index < options.users; index++) {
    const name =
      SPECIAL_USER_NAMES[index] ??
      (random.chance(0.1)
        ? random.pick(FULL_NAMES_WITHOUT_SPACE)
        : `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`);
    users.push({ id: userId(index), name });
  }
  return users;
}

function generateTrainingIds(count: number): string[] {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    ids.push(index % 2 === 0 ? String(index * 11 + 7).padStart(4, '0') : `TR-${index + 1}`);
  }
  return ids;
}

/** A group training as held: its day, its training and who attended. */
interface Group {
  day: number;
  trainingId: string;
  attendees: string[];
}

/**
 * Makes completions the way they arise: a group training on one day, with one instructor, attended
 * by distinct users and entered in one batch (so its records share `created`); some of them renew
 * an earlier group's training for some of its people.
 */
export class CompletionFactory {
  private groupsMade = 0;
  private readonly groups: Group[] = [];

  constructor(
    private readonly random: SeededRandom,
    private readonly createdUnit: CreatedUnit,
    private readonly userIds: readonly string[],
    private readonly trainingIds: readonly string[],
    private readonly renewals: SeededRandom,
  ) {}

  initialCompletions(count: number): Completion[] {
    const made: Completion[] = [];
    while (made.length < count) {
      const renewal = made.length >= RENEWALS_AFTER_RECORDS ? this.renewal() : null;
      if (renewal) {
        made.push(...this.groupTraining(renewal.day, count - made.length, renewal));
        continue;
      }
      const day =
        FORCED_COMPLETION_DAYS[this.groupsMade] ?? this.random.int(FIRST_COMPLETION_DAY, LAST_COMPLETION_DAY);
      made.push(...this.groupTraining(day, count - made.length));
    }
    return sortNewestFirst(made);
  }

  /** A refresher of an earlier group, or null: none is due, or it would fall after the data's last day. */
  private renewal(): Group | null {
    if (this.groups.length === 0 || !this.renewals.chance(RENEWAL_RATE)) return null;
    const earlier = this.renewals.pick(this.groups);
    const day = earlier.day + this.renewals.int(RENEWAL_AFTER_DAYS.min, RENEWAL_AFTER_DAYS.max);
    if (day > LAST_COMPLETION_DAY) return null;
    const attendees = earlier.attendees.filter(() => this.renewals.chance(0.7));
    if (attendees.length === 0) return null;
    return { day, trainingId: earlier.trainingId, attendees };
  }

  /** `count` completions dated after `newestExisting` (a date number), newest first. */
  completionsAfter(newestExisting: number | undefined, count: number): Completion[] {
    let day = newestExisting === undefined ? LAST_COMPLETION_DAY : epochDayOfDateNumber(newestExisting);
    const made: Completion[] = [];
    while (made.length < count) {
      day += this.random.int(1, 3);
      made.push(...this.groupTraining(day, count - made.length));
    }
    return sortNewestFirst(made);
  }

  /** `count` completions of trainings held `daysBefore` days before the date number given. */
  completionsOnDayBefore(dateNumber: number, daysBefore: number, count: number): Completion[] {
    const day = epochDayOfDateNumber(dateNumber) - daysBefore;
    const made: Completion[] = [];
    while (made.length < count) made.push(...this.groupTraining(day, count - made.length));
    return sortNewestFirst(made);
  }

  private groupTraining(day: number, maxSize: number, renewal?: Group): Completion[] {
    const groupNumber = ++this.groupsMade;
    const attendees = renewal
      ? renewal.attendees.slice(0, maxSize)
      : this.attendees(Math.min(maxSize, this.random.int(1, MAX_GROUP_SIZE)), groupNumber);
    const trainingId =
      renewal?.trainingId ?? this.trainingIds[Math.floor(this.random.next() ** 2 * this.trainingIds.length)]!;
    this.groups.push({ day, trainingId, attendees });
    const instructorId = this.userIds.length > 0 ? this.random.pick(this.userIds) : UNKNOWN_USER_IDS[0]!;
    // Entered on the day or up to three days later, never before the training took place.
    const created = timestamp(
      this.createdUnit,
      epochSecondsOfDay(day) + this.random.int(7 * 3600, 3 * 86_400),
      this.random.int(0, 999),
    );
    const groupTrainingId = 'g' + String(groupNumber).padStart(6, '0');
    return attendees.map((userId) => {
      const completion: Completion = {
        user_id: userId,
        training_id: trainingId,
        created,
        dateNumber: dateNumberOfEpochDay(day),
        instructor_id: instructorId,
        groupTraining_id: groupTrainingId,
      };
      if (this.random.chance(SPECIAL_EXPIRATION_RATE)) {
        completion.specialExpirationDateNumber = dateNumberOfEpochDay(day + this.random.int(180, 1100));
      }
      return completion;
    });
  }

  /** Distinct attendees, so that no two records of the service are identical. */
  private attendees(wanted: number, groupNumber: number): string[] {
    const pool = this.userIds.length > 0 ? this.userIds : UNKNOWN_USER_IDS;
    const size = Math.min(wanted, pool.length);
    const chosen = new Set<string>();
    if (groupNumber === GROUP_WITH_UNKNOWN_USER + 1) chosen.add(UNKNOWN_USER_IDS[1]!);
    while (chosen.size < size) {
      chosen.add(
        this.random.chance(UNKNOWN_USER_RATE) ? this.random.pick(UNKNOWN_USER_IDS) : this.random.pick(pool),
      );
    }
    return [...chosen];
  }
}

/**
 * A `created` value in the dataset's unit. The milliseconds are drawn in both units, so that one seed
 * gives the same records whichever unit is asked for.
 */
function timestamp(unit: CreatedUnit, seconds: number, milliseconds: number): number {
  return unit === 'seconds' ? seconds : seconds * 1000 + milliseconds;
}

/** Newest date first, then newest `created`, then generation order (stable sort). */
export function sortNewestFirst(completions: Completion[]): Completion[] {
  return completions.sort(compareNewestFirst);
}

/** Negative when `a` is listed before `b`: the service's order, newest date first, then newest `created`. */
export function compareNewestFirst(a: Completion, b: Completion): number {
  return Number(b.dateNumber) - Number(a.dateNumber) || b.created - a.created;
}

function generateEquipmentTypes(options: GeneratorOptions): EquipmentType[] {
  const random = new SeededRandom(options.seed, 'equipment-types');
  const anchors = new AnchorPicker(random);
  let metafieldsMade = 0;
  let schedulesMade = 0;
  const types: EquipmentType[] = [];
  for (let index = 0; index < options.equipmentTypes; index++) {
    // Types 0 and 1 guarantee the empty cases; 2 and 3 the largest ones.
    const metafieldCount = index === 0 ? 0 : index === 2 ? MAX_METAFIELDS : random.int(0, MAX_METAFIELDS);
    const scheduleCount = index === 1 ? 0 : index === 3 ? MAX_SCHEDULES : random.int(0, MAX_SCHEDULES);
    const metafields: Metafield[] = [];
    for (let k = 0; k < metafieldCount; k++) {
      const type = random.pick(METAFIELD_TYPES);
      const metafield: Metafield = { id: `mf${++metafieldsMade}`, name: random.pick(METAFIELD_NAMES), type };
      if (type === 'list') metafield.list_id = random.int(1, 40);
      metafields.push(metafield);
    }
    const schedules: Schedule[] = [];
    for (let k = 0; k < scheduleCount; k++) {
      schedules.push(generateSchedule(random, anchors, `sch${++schedulesMade}`));
    }
    const created = timestamp(
      options.createdUnit,
      epochSecondsOfDay(random.int(FIRST_TYPE_CREATED_DAY, LAST_TYPE_CREATED_DAY)) + random.int(0, 86_399),
      random.int(0, 999),
    );
    types.push({
      id: index % 2 === 0 ? String(1000 + index * 3).padStart(6, '0') : `et-${(index * 7919).toString(36)}`,
      title:
        index < EQUIPMENT_TITLES.length
          ? EQUIPMENT_TITLES[index]!
          : `${random.pick(EQUIPMENT_TITLES)} ${index}`,
      created,
      metafields,
      schedules,
    });
  }
  return types;
}

function generateSchedule(random: SeededRandom, anchors: AnchorPicker, id: string): Schedule {
  const timing = random.pick(TIMINGS);
  const trigger: ScheduleTrigger = {
    type: 'time',
    timing,
    ...(timing === 'rolling' ? {} : { timingDateNumber: anchors.next() }),
    expiringPeriodInDays: random.pick(EXPIRING_PERIODS),
    frequencyInDays: random.pick(FREQUENCIES),
  };
  const formId = random.chance(0.5) ? random.int(100, 9999) : undefined;
  return {
    id,
    name: random.pick(SCHEDULE_NAMES),
    ...(formId === undefined ? {} : { form_id: formId }),
    instructions: random.pick(INSTRUCTIONS),
    doRequireAttachments: random.chance(0.3),
    trigger,
  };
}

/** Anchor dates for dom/dow schedules; the first and every fourth fall on the 29th to 31st. */
class AnchorPicker {
  private picked = 0;

  constructor(private readonly random: SeededRandom) {}

  next(): number {
    const year = this.random.int(FIRST_ANCHOR_YEAR, LAST_ANCHOR_YEAR);
    const month = this.random.int(1, 12);
    const lastDay = daysInMonth(year, month);
    const atMonthEnd = this.picked++ % 4 === 0 && lastDay >= 29;
    const day = atMonthEnd ? this.random.int(29, lastDay) : this.random.int(1, lastDay);
    return year * 10_000 + month * 100 + day;
  }
}

/**
 * Records that parse as JSON but break the contract, spread over several types. The types that
 * guarantee "no metafields" (0) and "no schedules" (1) keep that property.
 */
function addAnomalies(completions: Completion[], equipmentTypes: EquipmentType[]): void {
  const wrongTypeCompletion = completions[Math.floor(completions.length / 2)];
  if (wrongTypeCompletion) wrongTypeCompletion.dateNumber = String(wrongTypeCompletion.dateNumber);

  const brokenTriggers: ScheduleTrigger[] = [
    { type: 'time', timing: 'hourly', expiringPeriodInDays: 0, frequencyInDays: 1 },
    { type: 'meter', timing: 'rolling', expiringPeriodInDays: 7, frequencyInDays: 30 },
    { type: 'time', timing: 'rolling', expiringPeriodInDays: 7, frequencyInDays: 0 },
    { type: 'time', timing: 'dow', timingDateNumber: 20240105, expiringPeriodInDays: 3, frequencyInDays: -7 },
    { type: 'time', timing: 'dom', timingDateNumber: 20230315, expiringPeriodInDays: 3 },
  ];
  const scheduleHosts = equipmentTypes.filter((_, index) => index !== 1);
  brokenTriggers.forEach((trigger, k) => {
    const host = scheduleHosts[k % scheduleHosts.length];
    host?.schedules.push({
      id: `sch-anomaly-${k + 1}`,
      name: `Broken schedule ${k + 1}`,
      instructions: '',
      doRequireAttachments: false,
      trigger,
    });
  });

  const brokenMetafields: Metafield[] = [
    { id: 'mf-anomaly-1', name: 'Purchase date', type: 'date' },
    { id: 'mf-anomaly-2', name: 'Colour', type: 'list' },
  ];
  const metafieldHosts = equipmentTypes.filter((_, index) => index !== 0);
  brokenMetafields.forEach((metafield, k) =>
    metafieldHosts[k % metafieldHosts.length]?.metafields.push(metafield),
  );
}
