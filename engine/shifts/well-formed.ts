import { EngineError } from '../domain/errors';

/** a UTF-16 surrogate without its other half: no Unicode text (UTF-8, a database, PostgreSQL's JSON cannot hold it) */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A shift's free text (staff, a movement's reason, a close's note) goes into the journal as it was sent: text that
 * is not Unicode — a lone surrogate, escaped in the request's JSON — is 400 INVALID_FIELD_VALUE naming the field
 * (PostgreSQL's JSON refused the entry with a 500; SQLite kept another text in the row than in the journal).
 */
export function assertWellFormed(text: string | undefined, param: string): void {
  if (text !== undefined && LONE_SURROGATE.test(text)) throw new EngineError('INVALID_FIELD_VALUE', { param, details: { reason: 'not_unicode' } });
}
