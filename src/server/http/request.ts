import { mediaTypeOf } from '../../core/routes/policy.ts';

/** Whether the request says its body is JSON (`Content-Type: application/json`, any parameters, any case). */
export const isJsonBody = (request: Request): boolean =>
  (request.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase() === mediaTypeOf('json');
