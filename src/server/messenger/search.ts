/**
 * Message search (REST `?search=` over a chat's messages). Each message keeps `search_text`,
 * its text folded in JavaScript (Unicode lower case, NFC, one Uzbek apostrophe): folding in
 * SQL would follow the database's ctype, and under the `C` locale `lower()`/`ILIKE` leave
 * Cyrillic capitals alone. The query is a LIKE over that column, which a pg_trgm GIN index
 * serves (PostgreSQL and PGlite both load pg_trgm; without it the LIKE still answers, by a
 * scan of the chat's rows).
 *
 * Note: pg_trgm takes its letters from the database's ctype; on a cluster initialised with
 * `--locale=C` only ASCII letters make trigrams, so Cyrillic searches there are correct but
 * read the chat's rows instead of the index. Production clusters use a UTF-8 locale.
 */

/** Apostrophes people type in Uzbek Latin (oʻ, gʻ): ' ` ‘ ’ ʼ ʻ all count as one. */
const APOSTROPHES = /['`‘’ʼʻ]/g;

/** The folded form of a text, as stored in `search_text` and as a search term is compared. */
export function searchKey(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(APOSTROPHES, 'ʻ');
}

/** A LIKE pattern matching `term` anywhere (its % _ \ taken literally). */
export function containsPattern(term: string): string {
  return `%${searchKey(term.trim()).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The column, and once (when it is added) its backfill: rows older than the column get
 * SQL's `lower()` until they are edited. Later starts do not scan the table again.
 */
export const MESSAGE_SEARCH_DDL = [
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'chat_message' AND column_name = 'search_text') THEN
       ALTER TABLE chat_message ADD COLUMN search_text text;
       UPDATE chat_message SET search_text = lower(message);
     END IF;
   END $$`,
];

/** The trigram index, made only where pg_trgm is installed. */
export const MESSAGE_SEARCH_INDEX_DDL =
  'CREATE INDEX IF NOT EXISTS ix_chat_message_search ON chat_message USING gin (search_text gin_trgm_ops)';
