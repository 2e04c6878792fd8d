/**
 * The record methods of the data provider: react-admin's verbs over an entity's API base
 * (`/api{manifest.base}`), plus what a record has around it — its rights, audit trail,
 * drafts, files, reference lists, export and merge.
 */
import type { HttpClient } from '../http.ts';
import { manifests } from '../../definitions/client.ts';
import type { ReferenceItem as ReferenceListItem } from '../../generated/meta.ts';
import type { AuditEntry } from '../../shared/audit.ts';
import type { ChainNode } from '../../generated/replies.ts';

export type RecordData = Record<string, unknown>;
export type StoredRecord = RecordData & {
  id: number;
  version: number;
  status: string;
  createdAt: string;
  updatedAt: string;
};

export interface ListParams {
  filters: Record<string, string | number | boolean | undefined>;
  /** 0-based, as on the wire. */
  page: number;
  itemsPerPage: number;
  sortBy: string[];
  sortDesc: boolean[];
}

/** A reference-list item as the API returns it (the definition's item without its display order). */
export type ReferenceItem = Omit<ReferenceListItem, 'sort'>;

/** One row of a record's audit trail (`GET {base}/audit/{id}`). */
export type { AuditEntry };

export interface UploadedFile {
  id: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  /** The caller attached it (file info only): only the uploader may take a file out of its record. */
  removable?: boolean;
}

/** What the user may do to a record now, by its edit rules and their roles (`GET {base}/rights/{id}`). */
export interface RecordRights {
  update: boolean;
  delete: boolean;
  /** JSON pointers of the fields that may not change (an object covers its fields). */
  readOnly: string[];
}

/** Unfinished input kept on the server under a private id (a manifest's `drafts`). */
export interface Draft {
  id: string;
  data: RecordData;
  updatedAt: string;
}

// One node of a record's chain (`GET {base}/chain/{id}`), in pre-order: generated from the chain
// capability's reply schema (src/server/capabilities/chain/replies.json).
export type { ChainNode };

/** The reply of a public submission: the new record's id and the reference number the applicant keeps. */
export interface PublicReceipt {
  id: number;
  referenceNumber: string;
  createdAt: string;
}

export interface RecordMethods {
  /** A page; `totalCapped` when more rows match than the server counted (total is then the cap). */
  getList(entity: string, params: ListParams): Promise<{ list: StoredRecord[]; total: number; totalCapped?: boolean }>;
  getOne(entity: string, id: number): Promise<StoredRecord>;
  /** What the user may do to the record now: update (which fields stay read-only), delete. */
  getRights(entity: string, id: number): Promise<RecordRights>;
  /** A blank record with the schema's defaults (`GET {base}/get/empty`). */
  getEmpty(entity: string): Promise<RecordData>;
  create(entity: string, data: RecordData): Promise<StoredRecord>;
  /** Changes a record; `version` is the one read (a stale one answers 409). */
  update(entity: string, id: number, data: RecordData & { version: number }): Promise<StoredRecord>;
  delete(entity: string, id: number, version?: number): Promise<void>;
  /** The record's audit trail: who changed what, oldest first (`GET {base}/audit/{id}`). */
  getAudit(entity: string, id: number): Promise<AuditEntry[]>;
  /** The chain the record belongs to, root first (`GET {base}/chain/{id}`, manifest `chain`). */
  getChain(entity: string, id: number): Promise<ChainNode[]>;
  /**
   * Registers a record from one file in one step (manifest `registerFromFile`: `POST /api{path}`,
   * multipart — the file and the form fields by their names).
   */
  registerFromFile(path: string, file: File, fields: Record<string, string>): Promise<StoredRecord>;
  /** The one record whose field at `field` (a JSON pointer) equals `value`, or null. */
  findBy(entity: string, field: string, value: string): Promise<StoredRecord | null>;
  /** Records whose keyword fields contain `keyword`, as `{id, label}` (label = the manifest's labelField). */
  searchByKeyword(entity: string, keyword: string, limit?: number): Promise<Array<{ id: number; label: string }>>;
  /** Merges records of an entity whose manifest allows `merge` into one new record (`POST {base}/merge`). */
  merge(entity: string, ids: number[]): Promise<StoredRecord>;
  /** A reference list (regions, districts…), the children of `parent` when given. */
  getReference(kind: string, parent?: number): Promise<ReferenceItem[]>;
  /** Uploads files for a new record of the entity, or for the existing record `record` (its edit rules decide). */
  upload(entity: string, files: File[], record?: number): Promise<UploadedFile[]>;
  getFileInfo(ids: string[]): Promise<UploadedFile[]>;
  /** URL of the XLSX export of a filtered, sorted list (opened by the browser). */
  exportUrl(entity: string, params: Omit<ListParams, 'page' | 'itemsPerPage'>): string;
  fileUrl(id: string): string;
  /** Keeps unfinished input (entities whose manifest allows drafts); returns its private id. */
  saveDraft(entity: string, id: string | undefined, data: RecordData): Promise<Draft>;
  getDraft(entity: string, id: string): Promise<Draft>;
  /** Validates the draft like create; on success the record exists and the draft is gone. */
  submitDraft(entity: string, id: string): Promise<StoredRecord>;
  /**
   * A public multipart submission (a manifest's `publicSubmit` route): the record as the
   * `data` field, an optional draft id; the same `idempotencyKey` on a repeat answers the first reply.
   */
  submitPublic(
    path: string,
    data: RecordData,
    options: { draftId?: string; idempotencyKey: string },
  ): Promise<PublicReceipt>;
}

/**
 * The API root of an entity (`/api` + its manifest's `base`); an entity no manifest declares
 * is a programming error, not a request to send.
 * @example apiBase('appeal') // '/api/appeal'
 */
export function apiBase(entity: string): string {
  const manifest = manifests.get(entity);
  if (!manifest) throw new Error(`unknown entity "${entity}"`);
  return `/api${manifest.base}`;
}

/** A multipart form of files under one field name. */
export function filesForm(files: File[], field: string): FormData {
  const form = new FormData();
  for (const f of files) form.append(field, f, f.name);
  return form;
}

/** Creates the record methods over an HTTP client. */
export function createRecordMethods(http: HttpClient): RecordMethods {
  return {
    getList: (entity, p) =>
      http.request('POST', `${apiBase(entity)}/list-search`, {
        query: p.filters,
        body: { page: p.page, itemsPerPage: p.itemsPerPage, sortBy: p.sortBy, sortDesc: p.sortDesc, multiSort: true },
      }),
    getOne: (entity, id) => http.request('GET', `${apiBase(entity)}/get/${id}`),
    getRights: (entity, id) => http.request('GET', `${apiBase(entity)}/rights/${id}`),
    getEmpty: (entity) => http.request('GET', `${apiBase(entity)}/get/empty`),
    create: (entity, data) => http.request('POST', `${apiBase(entity)}/create`, { body: data }),
    update: (entity, id, data) => http.request('PUT', `${apiBase(entity)}/update/${id}`, { body: data }),
    delete: async (entity, id, version) => {
      await http.request('DELETE', `${apiBase(entity)}/delete/${id}`, { query: { version } });
    },
    getAudit: async (entity, id) =>
      (await http.request<{ list: AuditEntry[] }>('GET', `${apiBase(entity)}/audit/${id}`)).list,
    getChain: async (entity, id) =>
      (await http.request<{ list: ChainNode[] }>('GET', `${apiBase(entity)}/chain/${id}`)).list,
    registerFromFile: (path, file, fields) => {
      const form = filesForm([file], 'file');
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      return http.request('POST', `/api${path}`, { form });
    },
    findBy: async (entity, field, value) =>
      (
        await http.request<{ record: StoredRecord | null }>('GET', `${apiBase(entity)}/find-by`, {
          query: { field, value },
        })
      ).record,
    searchByKeyword: async (entity, keyword, limit = 20) =>
      (
        await http.request<{ list: Array<{ id: number; label: string }> }>(
          'GET',
          `${apiBase(entity)}/search-by-keyword`,
          { query: { keyword, limit } },
        )
      ).list,
    merge: (entity, ids) => http.request('POST', `${apiBase(entity)}/merge`, { body: { ids } }),
    getReference: async (kind, parent) =>
      (await http.request<{ list: ReferenceItem[] }>('GET', `/api/reference/${kind}`, { query: { parent } })).list,
    upload: async (entity, files, record) =>
      (
        await http.request<{ list: UploadedFile[] }>('POST', `/api/file-entity/save/${entity}`, {
          form: filesForm(files, 'files'),
          query: { record },
        })
      ).list,
    getFileInfo: async (ids) =>
      ids.length
        ? (
            await http.request<{ list: UploadedFile[] }>('GET', '/api/file-entity/info', {
              query: { ids: ids.join(',') },
            })
          ).list
        : [],
    exportUrl: (entity, p) =>
      http.url(`${apiBase(entity)}/export`, {
        ...p.filters,
        sortBy: p.sortBy.join(','),
        sortDesc: p.sortDesc.map(String).join(','),
      }),
    fileUrl: (id) => http.url(`/api/file-entity/get/${id}`),
    saveDraft: (entity, id, data) =>
      id
        ? http.request('PUT', `${apiBase(entity)}/draft/${id}`, { body: data })
        : http.request('POST', `${apiBase(entity)}/draft`, { body: data }),
    getDraft: (entity, id) => http.request('GET', `${apiBase(entity)}/draft/${id}`),
    submitDraft: (entity, id) => http.request('POST', `${apiBase(entity)}/draft/${id}/submit`),
    submitPublic: (path, data, options) => {
      const form = new FormData();
      form.append('data', JSON.stringify(data));
      if (options.draftId) form.append('draftId', options.draftId);
      return http.request('POST', path, { form, headers: { 'idempotency-key': options.idempotencyKey } });
    },
  };
}
