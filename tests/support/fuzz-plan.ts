/**
 * Requests of the fuzz test, generated from the OpenAPI document: for every operation, a
 * valid base request (path, query, JSON or multipart body), then one request per parameter
 * or top-level field × hostile value, the other fields kept valid so that each value meets
 * the deepest check it can reach. Requests are made one at a time (100 kB values × tens of
 * thousands of requests would not fit in memory at once).
 */
import type { InjectOptions } from 'fastify';
import { hostileJson, hostileText, validValue, type DocSchema } from './hostile-values.ts';
import { PNG } from './multipart.ts';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: DocSchema;
}
export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: DocSchema }> };
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
}

/** One multipart body: text fields and files. */
interface Multipart {
  fields: Record<string, string>;
  files: Record<string, string>;
}
/** A request before encoding: path values URL-encoded already, query values as text, the body as JSON or multipart. */
export interface BaseRequest {
  path: Record<string, string>;
  query: Record<string, string>;
  json?: Record<string, unknown>;
  multipart?: Multipart;
  /** Multipart fields holding a JSON document, by name: their value is this object. */
  jsonFields?: Record<string, Record<string, unknown>>;
}

/** What the test knows that the document does not: valid ids, the records' versions, base bodies. */
export interface FuzzContext {
  /** The value of a path parameter that exists (a record's id, a reference list…). */
  pathValue(path: string, method: string, name: string, schema: DocSchema | undefined): string;
  /** The base JSON body of an operation, or undefined to make it from the schema. */
  jsonBody(path: string, method: string): Record<string, unknown> | undefined;
  /** The JSON document a multipart field holds (send-appeal's `data`), or undefined for plain text. */
  jsonField(path: string, name: string): Record<string, unknown> | undefined;
  /** The top-level field schemas of that document, for fuzzing inside it. */
  jsonFieldSchema(path: string, name: string): Record<string, DocSchema>;
}

export interface FuzzRequest {
  route: string;
  target: string;
  label: string;
  options: InjectOptions;
}

const isFile = (s: DocSchema | undefined): boolean => s?.format === 'binary' || s?.items?.format === 'binary';

/** The valid request each hostile one is a variant of. */
export function baseRequest(path: string, method: string, op: Operation, ctx: FuzzContext): BaseRequest {
  const base: BaseRequest = { path: {}, query: {} };
  for (const p of op.parameters ?? []) {
    if (p.in === 'path') base.path[p.name] = ctx.pathValue(path, method, p.name, p.schema);
    else if (p.in === 'query' && p.required) base.query[p.name] = String(validValue(p.schema));
  }
  const content = op.requestBody?.content;
  const form = content?.['multipart/form-data']?.schema;
  if (form) {
    base.multipart = { fields: {}, files: {} };
    base.jsonFields = {};
    for (const [name, schema] of Object.entries(form.properties ?? {})) {
      const document = ctx.jsonField(path, name);
      if (isFile(schema)) base.multipart.files[name] = 'fuzz.png';
      else if (document) {
        base.jsonFields[name] = document;
        base.multipart.fields[name] = JSON.stringify(document);
      } else if (form.required?.includes(name)) base.multipart.fields[name] = String(validValue(schema));
    }
  } else if (content?.['application/json']) {
    const schema = content['application/json'].schema;
    base.json = ctx.jsonBody(path, method) ?? (validValue({ ...schema, type: 'object' }) as Record<string, unknown>);
  }
  return base;
}

/** Encodes a multipart body for app.inject. */
function encodeMultipart(
  body: Multipart,
  fileNameHeader?: string,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----fuzz${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(body.fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
      Buffer.from(value, 'utf8'),
      Buffer.from('\r\n'),
    );
  }
  for (const [name, filename] of Object.entries(body.files)) {
    const disposition = fileNameHeader ?? `filename="${filename}"`;
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; ${disposition}\r\nContent-Type: image/png\r\n\r\n`,
        'utf8',
      ),
      PNG,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The request options of a base request with its path and query, as `method`. */
function encode(method: string, path: string, base: BaseRequest, extraQuery = ''): InjectOptions {
  const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => base.path[name] ?? '');
  const query = [
    ...Object.entries(base.query).map(([k, v]) => `${encodeURIComponent(k)}=${v === '' ? '' : encodeURIComponent(v)}`),
    extraQuery,
  ]
    .filter(Boolean)
    .join('&');
  const options: InjectOptions = {
    method: method.toUpperCase() as InjectOptions['method'],
    url: query ? `${url}?${query}` : url,
  };
  if (base.json)
    Object.assign(options, { payload: JSON.stringify(base.json), headers: { 'content-type': 'application/json' } });
  if (base.multipart) Object.assign(options, encodeMultipart(base.multipart));
  return options;
}

/** The valid request of an operation, encoded. */
export const validRequest = (path: string, method: string, op: Operation, ctx: FuzzContext): InjectOptions =>
  encode(method, path, baseRequest(path, method, op, ctx));

/**
 * Every hostile request of one operation: each path and query parameter × the text values,
 * each top-level JSON field × the JSON values, each multipart field × the text values (a file
 * field: its file name), each field inside a multipart JSON document × the JSON values.
 */
export function* hostileRequests(
  path: string,
  method: string,
  op: Operation,
  ctx: FuzzContext,
): Generator<FuzzRequest> {
  const route = `${method.toUpperCase()} ${path}`;
  const base = () => baseRequest(path, method, op, ctx);
  for (const p of op.parameters ?? []) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    for (const v of hostileText()) {
      const b = base();
      let extra = '';
      if (p.in === 'path') b.path[p.name] = v.encoded;
      else {
        delete b.query[p.name];
        extra = v.repeat ? `${p.name}=${v.encoded}&${p.name}=${v.encoded}` : `${p.name}=${v.encoded}`;
      }
      yield { route, target: `${p.in} ${p.name}`, label: v.label, options: encode(method, path, b, extra) };
    }
  }
  const content = op.requestBody?.content;
  const json = content?.['application/json']?.schema;
  if (content?.['multipart/form-data']) {
    const form = content['multipart/form-data'].schema!;
    for (const [name, schema] of Object.entries(form.properties ?? {})) {
      for (const v of hostileText()) {
        const b = base();
        if (isFile(schema)) {
          yield {
            route,
            target: `multipart ${name} file name`,
            label: v.label,
            options: {
              ...encode(method, path, { ...b, multipart: undefined }),
              ...encodeMultipart(b.multipart!, `filename*=utf-8''${v.encoded}`),
            },
          };
        } else {
          b.multipart!.fields[name] = v.text;
          yield { route, target: `multipart ${name}`, label: v.label, options: encode(method, path, b) };
        }
      }
      const document = ctx.jsonField(path, name);
      if (!document) continue;
      for (const [field, schema] of Object.entries(ctx.jsonFieldSchema(path, name))) {
        for (const v of hostileJson(schema)) {
          const b = base();
          b.multipart!.fields[name] = JSON.stringify({ ...b.jsonFields![name], [field]: v.value });
          yield { route, target: `multipart ${name} /${field}`, label: v.label, options: encode(method, path, b) };
        }
      }
    }
  } else if (json) {
    for (const [field, schema] of Object.entries(json.properties ?? {})) {
      for (const v of hostileJson(schema)) {
        const b = base();
        b.json = { ...b.json, [field]: v.value };
        yield { route, target: `body /${field}`, label: v.label, options: encode(method, path, b) };
      }
    }
  }
}
