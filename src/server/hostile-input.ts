import type { FastifyRequest } from 'fastify';
import type { FieldProblem } from '../shared/validation/field-errors.ts';
import { ApiError } from './errors.ts';
import { escapeSegment } from '../shared/pointer.ts';

/**
 * The largest number the API takes (±2^53−1): JavaScript holds integers exactly only up to
 * here, so a bigger id, page or amount would not round-trip — and past ±2^63 a bigint column
 * (every id, every integer field the grid filters on, see db/entity-table.ts) throws.
 */
export const INPUT_NUMBER_LIMIT = Number.MAX_SAFE_INTEGER;
/** Deeper than any record or payload the definitions describe; deeper input is an attack, not data. */
export const MAX_INPUT_DEPTH = 32;
/** Problems named in one reply: enough to fix a form, bounded for a hostile body with thousands. */
const MAX_PROBLEMS = 20;

// PostgreSQL text and jsonb cannot hold NUL (22P05/22021) or an unpaired UTF-16 surrogate
// (no UTF-8 encoding exists for it): such strings never reach SQL.
const NUL = /\0/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const printable = (s: string): string =>
  s.replace(/\0/g, '\ufffd').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd');
const segment = (key: string): string => escapeSegment(printable(key));

function stringProblem(s: string): string | undefined {
  if (NUL.test(s)) return 'hostileInput.nul';
  if (LONE_SURROGATE.test(s)) return 'hostileInput.loneSurrogate';
  return undefined;
}

/**
 * The values of a parsed request part that no route can take, each with its JSON pointer
 * under `prefix`: strings (and property names) with NUL or a lone surrogate, numbers that
 * are not finite or beyond ±{@link INPUT_NUMBER_LIMIT}, nesting deeper than
 * {@link MAX_INPUT_DEPTH}. Walks with its own stack, so no input depth can overflow it.
 * @example findHostileValues({ page: 1e20 }) // [{ pointer: '/page', key: 'hostileInput.numberRange', … }]
 */
export function findHostileValues(value: unknown, prefix = ''): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const stack: Array<{ value: unknown; pointer: string; depth: number }> = [{ value, pointer: prefix, depth: 0 }];
  while (stack.length && problems.length < MAX_PROBLEMS) {
    const { value: node, pointer, depth } = stack.pop()!;
    if (typeof node === 'string') {
      const key = stringProblem(node);
      if (key) problems.push({ pointer, key, params: {} });
    } else if (typeof node === 'number') {
      if (!Number.isFinite(node) || Math.abs(node) > INPUT_NUMBER_LIMIT)
        problems.push({ pointer, key: 'hostileInput.numberRange', params: { limit: INPUT_NUMBER_LIMIT } });
    } else if (node !== null && typeof node === 'object') {
      if (depth >= MAX_INPUT_DEPTH) {
        problems.push({ pointer, key: 'hostileInput.tooDeep', params: { limit: MAX_INPUT_DEPTH } });
        continue;
      }
      const entries = Array.isArray(node) ? node.map((v, i) => [String(i), v] as const) : Object.entries(node);
      // Reversed onto the stack, so problems come out in the input's order.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const childPointer = `${pointer}/${segment(key)}`;
        const keyProblem = Array.isArray(node) ? undefined : stringProblem(key);
        if (keyProblem) problems.push({ pointer: childPointer, key: keyProblem, params: {} });
        else stack.push({ value: child, pointer: childPointer, depth: depth + 1 });
      }
    }
  }
  return problems.slice(0, MAX_PROBLEMS);
}

/**
 * Whether an error is PostgreSQL refusing a value (SQLSTATE class 22, data exception: bad
 * encoding, out of range, invalid text for a type; 54000/54001: a value or statement past a
 * limit). The error handler answers these 400 as a last resort — input validation should
 * have refused the value first, so each one is logged as a gap to close.
 */
export function isDataException(error: unknown): boolean {
  const e = error as { code?: unknown; severity?: unknown } | null;
  return typeof e?.code === 'string' && typeof e.severity === 'string' && /^(22[0-9A-Z]{3}|5400[01])$/.test(e.code);
}

/** 400 naming each hostile value of one request part (`params`, `querystring`, `body`, `multipart`). */
const refuse = (part: string, problems: FieldProblem[]): ApiError =>
  new ApiError(400, 'errors.invalidInput', { fieldErrors: problems, details: { part } });

/**
 * Refuses a request whose path parameters, query or body hold a hostile value. Runs after
 * schema validation, so query numbers are checked as the route reads them (`?regionId=1e20`
 * is a number by then), and before every handler — including those that read their input
 * themselves.
 */
export function assertNoHostileInput(request: FastifyRequest): void {
  for (const [part, value] of [
    ['params', request.params],
    ['querystring', request.query],
    ['body', request.body],
  ] as const) {
    const problems = findHostileValues(value);
    if (problems.length) throw refuse(part, problems);
  }
}

interface Part {
  type: 'file' | 'field';
  fieldname: string;
  filename?: string;
  value?: unknown;
  file?: { resume(): unknown };
}
type PartIterator = (this: FastifyRequest, options?: unknown) => AsyncIterableIterator<Part>;

/** Problems of one multipart part: its name, its file name, its text and, when the text is JSON, the values inside. */
function partProblems(part: Part): FieldProblem[] {
  const pointer = `/${segment(part.fieldname)}`;
  const problems = findHostileValues(part.fieldname, pointer);
  if (part.type === 'file') return [...problems, ...findHostileValues(part.filename ?? '', `${pointer}/filename`)];
  problems.push(...findHostileValues(part.value, pointer));
  // A field carrying a JSON document (send-appeal's `data`) is checked as the values it holds.
  if (!problems.length && typeof part.value === 'string' && /^\s*[[{]/.test(part.value)) {
    try {
      problems.push(...findHostileValues(JSON.parse(part.value) as unknown, pointer));
    } catch {
      // Not JSON after all: the route says what it expected.
    }
  }
  return problems;
}

/**
 * Makes the multipart readers of this request (`parts()`, `files()`, from
 * @fastify/multipart, registered by the routes that take uploads) refuse a hostile part as
 * it arrives — one wrapper for every multipart route, none of which checks names itself.
 */
export function guardMultipart(request: FastifyRequest): void {
  const target = request as unknown as Record<'parts' | 'files', PartIterator | undefined> & {
    isMultipart?: () => boolean;
  };
  if (typeof target.isMultipart !== 'function' || !target.isMultipart()) return;
  for (const name of ['parts', 'files'] as const) {
    const read = target[name];
    if (typeof read !== 'function') continue;
    target[name] = async function* guarded(this: FastifyRequest, options?: unknown) {
      for await (const part of read.call(this, options)) {
        const problems = partProblems(part);
        if (problems.length) {
          // Let the stream finish so that the parser ends; nothing of this part is kept.
          part.file?.resume();
          throw refuse('multipart', problems);
        }
        yield part;
      }
    };
  }
}
