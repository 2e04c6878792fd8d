/**
 * The one data path of the web app (STYLE rule 4): every screen reads and writes through
 * this object, shaped like react-admin's DataProvider, and the TanStack Query hooks named
 * after its methods (hooks.ts).
 */
import type { HttpClient } from './http.ts';
import { manifests } from '../definitions/client.ts';
import type { ReferenceItem as ReferenceListItem } from '../generated/meta.ts';
import type { AuditEntry } from '../shared/audit.ts';

export type RecordData = Record<string, unknown>;
export type StoredRecord = RecordData & { id: number; version: number; status: string; createdAt: string; updatedAt: string };

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

export interface DataProvider {
  /** A page; `totalCapped` when more rows match than the server counted (total is then the cap). */
  getList(entity: string, params: ListParams): Promise<{ list: StoredRecord[]; total: number; totalCapped?: boolean }>;
  getOne(entity: string, id: number): Promise<StoredRecord>;
  /** What the user may do to the record now: update (which fields stay read-only), delete. */
  getRights(entity: string, id: number): Promise<RecordRights>;
  getEmpty(entity: string): Promise<RecordData>;
  create(entity: string, data: RecordData): Promise<StoredRecord>;
  update(entity: string, id: number, data: RecordData & { version: number }): Promise<StoredRecord>;
  delete(entity: string, id: number, version?: number): Promise<void>;
  getHistory(entity: string, id: number): Promise<AuditEntry[]>;
  findBy(entity: string, field: string, value: string): Promise<StoredRecord | null>;
  /** Records whose keyword fields contain `keyword`, as `{id, label}` (label = the manifest's labelField). */
  searchByKeyword(entity: string, keyword: string, limit?: number): Promise<Array<{ id: number; label: string }>>;
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
   * Calls a named endpoint of the API (lookup and flow screens): GET sends params as query,
   * POST as body; `query` adds query parameters to a POST.
   */
  call<T>(method: 'GET' | 'POST', path: string, params: Record<string, unknown>, query?: Record<string, unknown>): Promise<T>;
  /** Posts files as multipart to a named endpoint (a photo upload); `field` names the part. */
  postFiles<T>(path: string, files: File[], field?: string): Promise<T>;
  /**
   * A public multipart submission (a manifest's `publicSubmit` route): the record as the
   * `data` field, an optional draft id; the same `idempotencyKey` on a repeat answers the first reply.
   */
  submitPublic(path: string, data: RecordData, options: { draftId?: string; idempotencyKey: string }): Promise<{ id: number; referenceNumber: string; createdAt: string }>;
  /** Any request of a subsystem API (the messenger, questionnaires): JSON body or multipart form, query, headers (an idempotency key). */
  send<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options?: { body?: unknown; form?: FormData; query?: Record<string, string | number | undefined>; headers?: Record<string, string> }): Promise<T>;
}

export interface Draft {
  id: string;
  data: RecordData;
  updatedAt: string;
}

const baseOf = (entity: string): string => {
  const manifest = manifests.get(entity);
  if (!manifest) throw new Error(`unknown entity "${entity}"`);
  return `/api${manifest.base}`;
};

/** Creates the data provider over an HTTP client. */
export function createDataProvider(http: HttpClient): DataProvider {
  return {
    getList: (entity, p) => http.request('POST', `${baseOf(entity)}/list-search`, {
      query: p.filters,
      body: { page: p.page, itemsPerPage: p.itemsPerPage, sortBy: p.sortBy, sortDesc: p.sortDesc, multiSort: true },
    }),
    getOne: (entity, id) => http.request('GET', `${baseOf(entity)}/get/${id}`),
    getRights: (entity, id) => http.request('GET', `${baseOf(entity)}/rights/${id}`),
    getEmpty: (entity) => http.request('GET', `${baseOf(entity)}/get/empty`),
    create: (entity, data) => http.request('POST', `${baseOf(entity)}/create`, { body: data }),
    update: (entity, id, data) => http.request('PUT', `${baseOf(entity)}/update/${id}`, { body: data }),
    delete: async (entity, id, version) => {
      await http.request('DELETE', `${baseOf(entity)}/delete/${id}`, { query: { version } });
    },
    getHistory: async (entity, id) => (await http.request<{ list: AuditEntry[] }>('GET', `${baseOf(entity)}/audit/${id}`)).list,
    findBy: async (entity, field, value) =>
      (await http.request<{ record: StoredRecord | null }>('GET', `${baseOf(entity)}/find-by`, { query: { field, value } })).record,
    searchByKeyword: async (entity, keyword, limit = 20) =>
      (await http.request<{ list: Array<{ id: number; label: string }> }>('GET', `${baseOf(entity)}/search-by-keyword`, { query: { keyword, limit } })).list,
    getReference: async (kind, parent) => (await http.request<{ list: ReferenceItem[] }>('GET', `/api/reference/${kind}`, { query: { parent } })).list,
    upload: async (entity, files, record) => {
      const form = new FormData();
      for (const f of files) form.append('files', f, f.name);
      return (await http.request<{ list: UploadedFile[] }>('POST', `/api/file-entity/save/${entity}`, { form, query: { record } })).list;
    },
    getFileInfo: async (ids) => (ids.length ? (await http.request<{ list: UploadedFile[] }>('GET', '/api/file-entity/info', { query: { ids: ids.join(',') } })).list : []),
    exportUrl: (entity, p) => http.url(`${baseOf(entity)}/export`, {
      ...p.filters,
      sortBy: p.sortBy.join(','),
      sortDesc: p.sortDesc.map(String).join(','),
    }),
    fileUrl: (id) => http.url(`/api/file-entity/get/${id}`),
    saveDraft: (entity, id, data) => (id
      ? http.request('PUT', `${baseOf(entity)}/draft/${id}`, { body: data })
      : http.request('POST', `${baseOf(entity)}/draft`, { body: data })),
    getDraft: (entity, id) => http.request('GET', `${baseOf(entity)}/draft/${id}`),
    submitDraft: (entity, id) => http.request('POST', `${baseOf(entity)}/draft/${id}/submit`),
    postFiles: (path, files, field = 'files') => {
      const form = new FormData();
      for (const f of files) form.append(field, f, f.name);
      return http.request('POST', path, { form });
    },
    submitPublic: (path, data, options) => {
      const form = new FormData();
      form.append('data', JSON.stringify(data));
      if (options.draftId) form.append('draftId', options.draftId);
      return http.request('POST', path, { form, headers: { 'idempotency-key': options.idempotencyKey } });
    },
    call: (method, path, params, query) => (method === 'GET'
      ? http.request('GET', path, { query: { ...query, ...params } as Record<string, string> })
      : http.request('POST', path, { body: params, ...(query ? { query: query as Record<string, string> } : {}) })),
    send: (method, path, options = {}) => http.request(method, path, options),
  };
}
