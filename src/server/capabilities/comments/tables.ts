import type { Database } from '../../db/database.ts';
import type { Migration } from '../../db/migrations.ts';

/**
 * Comments on records of any entity that declares `comments`, and their files. A deleted
 * comment keeps its row (text emptied, `deleted_at` set) so its replies keep their place.
 */
export const COMMENT_TABLES: Migration = {
  name: 'comments',
  ddl: [
    `CREATE TABLE IF NOT EXISTS record_comment (
    id bigserial PRIMARY KEY,
    entity text NOT NULL,
    record_id bigint NOT NULL,
    parent_id bigint REFERENCES record_comment (id),
    author text NOT NULL,
    text text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    edited_at timestamptz,
    deleted_at timestamptz
  )`,
    `CREATE INDEX IF NOT EXISTS ix_record_comment_record ON record_comment (entity, record_id, created_at)`,
    `CREATE TABLE IF NOT EXISTS record_comment_file (
    id uuid PRIMARY KEY,
    comment_id bigint NOT NULL REFERENCES record_comment (id),
    name text NOT NULL,
    mime text NOT NULL,
    size bigint NOT NULL,
    sha256 text NOT NULL
  )`,
    `CREATE INDEX IF NOT EXISTS ix_record_comment_file_comment ON record_comment_file (comment_id)`,
  ],
};

/** One comment row as the routes read it. */
export interface CommentRow {
  id: number;
  entity: string;
  record_id: number;
  parent_id: number | null;
  author: string;
  author_name: string | null;
  text: string;
  created_at: string;
  edited_at: string | null;
  deleted: boolean;
}

/** One file of a comment. */
export interface CommentFileRow {
  id: string;
  comment_id: number;
  name: string;
  mime: string;
  size: number;
  sha256: string;
}

const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The columns of a comment, with its author's name read from the user table (`u`). */
const columns = (nameSql: string) =>
  `c.id::int AS id, c.entity, c.record_id::int AS record_id, c.parent_id::int AS parent_id, c.author,
   ${nameSql} AS author_name, c.text, ${ISO('c.created_at')} AS created_at, ${ISO('c.edited_at')} AS edited_at,
   (c.deleted_at IS NOT NULL) AS deleted`;

/**
 * The comment SQL of one app: `userTable` is the table of access.json's user entity and
 * `nameSql` the SQL of a user row `u`'s display name.
 */
export function commentQueries(db: Database, userTable: string, nameSql: string) {
  const from = `FROM record_comment c LEFT JOIN ${userTable} u ON u.id::text = c.author`;
  return {
    /** A record's comments, oldest first. */
    async ofRecord(entity: string, recordId: number): Promise<CommentRow[]> {
      const { rows } = await db.query<CommentRow>(
        `SELECT ${columns(nameSql)} ${from} WHERE c.entity = $1 AND c.record_id = $2 ORDER BY c.created_at, c.id`,
        [entity, recordId],
      );
      return rows;
    },
    /** One comment of the entity, or undefined. */
    async one(entity: string, id: number): Promise<CommentRow | undefined> {
      const { rows } = await db.query<CommentRow>(
        `SELECT ${columns(nameSql)} ${from} WHERE c.entity = $1 AND c.id = $2`,
        [entity, id],
      );
      return rows[0];
    },
    /** The files of some comments. */
    async files(commentIds: number[]): Promise<CommentFileRow[]> {
      if (!commentIds.length) return [];
      const { rows } = await db.query<CommentFileRow>(
        `SELECT id::text, comment_id::int AS comment_id, name, mime, size::int AS size, sha256
         FROM record_comment_file WHERE comment_id = ANY($1::bigint[]) ORDER BY name, id`,
        [commentIds],
      );
      return rows;
    },
    /** One file with the comment it belongs to, or undefined. */
    async file(entity: string, fileId: string): Promise<(CommentFileRow & { record_id: number }) | undefined> {
      const { rows } = await db.query<CommentFileRow & { record_id: number }>(
        `SELECT f.id::text, f.comment_id::int AS comment_id, f.name, f.mime, f.size::int AS size, f.sha256,
                c.record_id::int AS record_id
         FROM record_comment_file f JOIN record_comment c ON c.id = f.comment_id
         WHERE f.id = $1 AND c.entity = $2 AND c.deleted_at IS NULL`,
        [fileId, entity],
      );
      return rows[0];
    },
  };
}
