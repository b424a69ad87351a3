/** The API methods: from a validated request to the content of a success envelope. */
import {
  ApiError,
  parseCompletionListParameters,
  parseEquipmentTypeListParameters,
  parseUserInfoParameters,
  type ApiMethodName,
  type RequestData,
} from './protocol';
import { EncodedJson } from './protocol';
import type { Dataset } from './store';

export type SuccessEnvelope = { ok: true } & Record<string, unknown>;

/** The dataset's quirks (quirks.ts) that change how a method itself answers, not just its answer. */
export interface MethodQuirks {
  /** The most completions a page holds, whatever `limit` asks. */
  pageSizeCap?: number | undefined;
}

export interface CompletionPaging {
  page: number;
  /**
   * The page size served: the `limit` asked for, or the page size cap when that is smaller, so that
   * `last_page` is always ceil(total / limit).
   */
  limit: number;
  total: number;
  last_page: number;
}

type MethodHandler = (dataset: Dataset, data: RequestData, quirks: MethodQuirks) => SuccessEnvelope;

export const API_METHODS: Record<ApiMethodName, MethodHandler> = {
  'completedtrainings.list': (dataset, data, { pageSizeCap }) => {
    const parameters = parseCompletionListParameters(data);
    const matching = dataset.completionsMatching(parameters);
    const pageSize = Math.min(parameters.limit, pageSizeCap ?? parameters.limit);
    const first = (parameters.page - 1) * pageSize;
    const paging: CompletionPaging = {
      page: parameters.page,
      limit: pageSize,
      total: matching.length,
      last_page: Math.max(1, Math.ceil(matching.length / pageSize)),
    };
    return {
      ok: true,
      completedtrainings: new EncodedJson(dataset.completionsPageJson(parameters, first, pageSize)),
      paging,
    };
  },

  'equipmenttypes.list': (dataset, data) => {
    parseEquipmentTypeListParameters(data);
    return { ok: true, equipmenttypes: dataset.equipmentTypes };
  },

  'users.info': (dataset, data) => {
    const userId = parseUserInfoParameters(data);
    const user = dataset.userById(userId);
    if (!user) throw new ApiError('content_not_found', `No user has the id ${JSON.stringify(userId)}.`);
    return { ok: true, user };
  },
};
