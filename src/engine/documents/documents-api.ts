/** One file of a generated document, as the server lists it. */
export interface GeneratedFile {
  id: string;
  name: string;
  mime: string;
  size: number;
}

/** A document made from a record (`POST /api{base}/documents/{id}/{kind}`, `GET /api{base}/documents/{id}`). */
export interface GeneratedDocument {
  id: number;
  kind: string;
  templateVersion: number;
  docx: GeneratedFile;
  pdf: GeneratedFile | null;
  createdAt?: string;
}

/** The query key of a record's documents: under the entity's prefix, so a write of the record refreshes it. */
export const documentsKey = (entity: string, id: number) => ['entity', entity, 'documents', id] as const;
