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

type MethodHandler = (dataset: Dataset, data: RequestData) => SuccessEnvelope;

export const API_METHODS: Record<ApiMethodName, MethodHandler> = {
  'completedtrainings.list': (dataset, data) => {
    const parameters = parseCompletionListParameters(data);
    const matching = dataset.completionsMatching(parameters);
    const first = (parameters.page - 1) * parameters.limit;
    return {
      ok: true,
      completedtrainings: new EncodedJson(dataset.completionsPageJson(parameters, first, parameters.limit)),
      paging: {
        page: parameters.page,
        limit: parameters.limit,
        total: matching.length,
        last_page: Math.max(1, Math.ceil(matching.length / parameters.limit)),
      },
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
