/**
 * Injected misbehaviour of a dataset: latency, a request budget, a queue of one-off faults, a
 * redirect to another host, and data that changes while a client is paging. It lets tests reproduce
 * what intermediaries, overload and concurrent writers do to a real client.
 */
import type { ApiMethodName } from './protocol';
import type { Mutations, MutationsResult } from './mutations';

export const FAULT_KINDS = [
  'html502',
  'truncated',
  'server_error',
  'rate_limit_exceeded',
  'non_envelope',
  'status500',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const REDIRECT_STATUSES = [301, 302, 303, 307, 308] as const;

/**
 * Something in front of the service (a moved host, a proxy, a hijacked DNS name) sending clients
 * elsewhere: from the `fromRequest`th request of the dataset since the settings were put on, every
 * one is answered `status` with a Location of `to` followed by the request's path and query, as a
 * moved service answers. The API never sees these requests; the request log shows them.
 */
export interface RedirectFault {
  status: (typeof REDIRECT_STATUSES)[number];
  /** An origin (http://host:port), the path and query of each request are appended to. */
  to: string;
  fromRequest: number;
}

export interface QueuedFault {
  fault: FaultKind;
  /** Only requests to this API method consume the fault; without it, any request of the dataset. */
  method?: ApiMethodName;
  /** How many more matching requests get this fault. */
  times: number;
}

export interface FaultSettings {
  latencyMs: number;
  /** Requests allowed per token before every further one answers rate_limit_exceeded; null = unlimited. */
  requestBudget: number | null;
  queue: QueuedFault[];
  redirect: RedirectFault | null;
  insertDuringPaging: { afterRequests: number; count: number } | null;
  /**
   * A busy service whose newest records keep arriving while a client pages: after every read of
   * page 1 of completedtrainings.list (filtered or not; an answer that is an error, or that a fault
   * broke, is no read), `count` completions dated after every other are added on top. Made after
   * insertDuringPaging's insert of the same moment and before the mutations falling due then.
   */
  insertOnTopAfterPageOne: { count: number } | null;
  /**
   * Data changes made while a client pages: each entry's mutations are applied once, as soon as
   * `afterRequests` completedtrainings.list requests have been answered since the settings were
   * put (after insertDuringPaging's insert of that moment; entries falling due together, in the
   * order given). Positions name the list as it is then.
   */
  mutateAfterRequests: ScheduledMutations[];
}

export interface ScheduledMutations {
  afterRequests: number;
  mutations: Mutations;
}

/**
 * What became of scheduled mutations. Ones that no longer fit the list when they fall due (a
 * position beyond its end) are skipped whole, not applied in part, and say why: a test that
 * scheduled them finds out instead of paging through data it did not intend.
 */
export type ScheduledMutationOutcome =
  | { outcome: 'pending' }
  | ({ outcome: 'applied' } & MutationsResult)
  | { outcome: 'skipped'; mutationSkipped: string };

/** The settings as they are now, each scheduled mutation with its outcome so far. */
export interface CurrentFaultSettings extends Omit<FaultSettings, 'mutateAfterRequests'> {
  mutateAfterRequests: Array<ScheduledMutations & ScheduledMutationOutcome>;
}

/** How the dataset makes the data changes that fall due while a client pages. */
export interface PagingChanges {
  insertNewest(count: number): void;
  mutate(mutations: Mutations): ScheduledMutationOutcome;
}

function noFaults(latencyMs: number): FaultSettings {
  return {
    latencyMs,
    requestBudget: null,
    queue: [],
    redirect: null,
    insertDuringPaging: null,
    insertOnTopAfterPageOne: null,
    mutateAfterRequests: [],
  };
}

/** Bodies a misbehaving intermediary might return with status 200, in the order they are served. */
const NON_ENVELOPE_BODIES = ['[]', '{"status":"fine"}'];

export const HTML_502_BODY =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n' +
  '<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

export class FaultState {
  private settings: FaultSettings;
  /** Requests counted against the budget since the settings were last replaced. */
  private budgetSpent = 0;
  /** Requests of the dataset since the settings were last replaced (the redirect counts them). */
  private requestsSeen = 0;
  private completionListRequests = 0;
  private pagingInsertDone = false;
  /** Parallel to settings.mutateAfterRequests. */
  private scheduledOutcomes: ScheduledMutationOutcome[] = [];
  private nonEnvelopeServed = 0;

  constructor(latencyMs: number) {
    this.settings = noFaults(latencyMs);
  }

  /** Replaces every setting and restarts the budget and paging counts. */
  replace(settings: FaultSettings): void {
    this.settings = { ...settings, queue: settings.queue.map((queued) => ({ ...queued })) };
    this.budgetSpent = 0;
    this.requestsSeen = 0;
    this.completionListRequests = 0;
    this.pagingInsertDone = false;
    this.scheduledOutcomes = settings.mutateAfterRequests.map(() => ({ outcome: 'pending' }));
  }

  current(): CurrentFaultSettings {
    return {
      ...this.settings,
      queue: this.settings.queue.map((queued) => ({ ...queued })),
      mutateAfterRequests: this.settings.mutateAfterRequests.map((scheduled, index) => ({
        ...scheduled,
        ...this.scheduledOutcomes[index]!,
      })),
    };
  }

  get latencyMs(): number {
    return this.settings.latencyMs;
  }

  /**
   * Counts a request of the dataset; the redirect it gets, if one is set and due: its status and
   * Location, for the request's `target` (path and query as received).
   */
  redirectOf(target: string): { status: RedirectFault['status']; location: string } | undefined {
    this.requestsSeen += 1;
    const redirect = this.settings.redirect;
    if (!redirect || this.requestsSeen < redirect.fromRequest) return undefined;
    return { status: redirect.status, location: redirect.to.replace(/\/+$/, '') + target };
  }

  /** Consumes one use of the first queued fault that applies to a request for `method`. */
  takeQueuedFault(method: ApiMethodName | undefined): FaultKind | undefined {
    const index = this.settings.queue.findIndex(
      (queued) => queued.method === undefined || queued.method === method,
    );
    const queued = this.settings.queue[index];
    if (!queued) return undefined;
    queued.times -= 1;
    if (queued.times === 0) this.settings.queue.splice(index, 1);
    return queued.fault;
  }

  /**
   * Counts a request against the budget; false once the budget is used up. Only the dataset's valid
   * token gets past the token checks to this point, so one count is the count of that token.
   */
  spendBudget(): boolean {
    this.budgetSpent += 1;
    return this.settings.requestBudget === null || this.budgetSpent <= this.settings.requestBudget;
  }

  /**
   * Counts an answered completedtrainings.list request and has `changes` make what falls due now.
   * `pageRead`: the page the request read, or null when its answer was an error or broken.
   */
  countCompletionListRequest(changes: PagingChanges, pageRead: number | null): void {
    this.completionListRequests += 1;
    const insert = this.settings.insertDuringPaging;
    if (insert && !this.pagingInsertDone && this.completionListRequests >= insert.afterRequests) {
      this.pagingInsertDone = true;
      changes.insertNewest(insert.count);
    }
    const onTop = this.settings.insertOnTopAfterPageOne;
    if (onTop && pageRead === 1) changes.insertNewest(onTop.count);
    this.settings.mutateAfterRequests.forEach((scheduled, index) => {
      if (
        this.scheduledOutcomes[index]!.outcome === 'pending' &&
        this.completionListRequests >= scheduled.afterRequests
      ) {
        this.scheduledOutcomes[index] = changes.mutate(scheduled.mutations);
      }
    });
  }

  nextNonEnvelopeBody(): string {
    return NON_ENVELOPE_BODIES[this.nonEnvelopeServed++ % NON_ENVELOPE_BODIES.length]!;
  }
}

/** A JSON body cut off midway, as a dropped connection behind a proxy would leave it. */
export function truncateBody(body: string): string {
  return body.slice(0, Math.floor(body.length / 2));
}
