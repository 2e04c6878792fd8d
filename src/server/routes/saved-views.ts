/**
 * Saved views of lists, per user (issue #17): `GET /api/views/{screen}` lists the signed-in
 * user's views of a list screen, `POST` saves one (a name used again replaces that view),
 * `DELETE /api/views/{screen}/{id}` removes one. Only the owner reads or deletes their views: a
 * view of someone else is "not found", whoever asks. A view's filters, sort and columns are
 * checked against the list's grid (src/shared/saved-views.ts); one naming something the list
 * does not have is refused with a plain message.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ApiError, errorBodySchema, notFound } from '../errors.ts';
import { objectReply, okReply } from '../reply-schemas.ts';
import type { Migration } from '../db/migrations.ts';
import { SAVED_VIEW_STATE_SCHEMA, VIEW_NAME_MAX, viewProblems, type SavedViewState } from '../../shared/saved-views.ts';

/** One row per user, list screen and name. */
const SAVED_VIEW_TABLES: Migration = {
  name: 'saved-views',
  ddl: [
    `CREATE TABLE IF NOT EXISTS saved_view (
      id bigserial PRIMARY KEY,
      user_id text NOT NULL,
      screen text NOT NULL,
      name text NOT NULL,
      state jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, screen, name)
    )`,
  ],
};
/** This route plugin's tables (db/migrations.ts). */
export const migrations = [SAVED_VIEW_TABLES];

const viewReply = objectReply('A saved view', {
  id: { type: 'integer' },
  name: { type: 'string' },
  state: SAVED_VIEW_STATE_SCHEMA as never,
});
const screenParams = {
  type: 'object',
  required: ['screen'],
  properties: { screen: { type: 'string', pattern: '^[a-z][a-z0-9-]*$', maxLength: 100 } },
} as const;
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

interface ViewRow {
  id: string | number;
  name: string;
  state: SavedViewState;
}
const asView = (row: ViewRow) => ({ id: Number(row.id), name: row.name, state: row.state });

const savedViews: FastifyPluginAsync = async (app) => {
  const tags = ['Saved views'];

  /** The signed-in user and the list screen's grid, or the reason why not. */
  const listOf = (request: FastifyRequest, screenId: string) => {
    const { actor } = request;
    if (actor.id === null) throw new ApiError(401, 'errors.unauthorized');
    const screen = app.definitions.screens.get(screenId);
    const def = screen?.entity ? app.definitions.entities.get(screen.entity) : undefined;
    if (!screen || !def) throw notFound();
    if (screen.kind !== 'list') throw new ApiError(400, 'list.viewNotList', { params: { name: screenId } });
    if (!actor.ability.can('read', def.manifest.subject)) throw new ApiError(403, 'errors.forbidden');
    return { userId: actor.id, grid: def.grid };
  };

  app.get<{ Params: { screen: string } }>(
    '/api/views/:screen',
    {
      schema: {
        tags,
        summary: "The signed-in user's saved views of a list screen",
        params: screenParams,
        response: { 200: objectReply('Views, by name', { list: { type: 'array', items: viewReply } }), ...errors },
      },
    },
    async (request) => {
      const { userId } = listOf(request, request.params.screen);
      const { rows } = await app.db.query<ViewRow>(
        'SELECT id, name, state FROM saved_view WHERE user_id = $1 AND screen = $2 ORDER BY name',
        [userId, request.params.screen],
      );
      return { list: rows.map(asView) };
    },
  );

  app.post<{ Params: { screen: string }; Body: { name: string; state: SavedViewState } }>(
    '/api/views/:screen',
    {
      schema: {
        tags,
        summary: 'Saves the list as arranged under a name (the same name replaces that view)',
        params: screenParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'state'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: VIEW_NAME_MAX, pattern: '\\S' },
            state: SAVED_VIEW_STATE_SCHEMA,
          },
        },
        response: { 200: viewReply, ...errors },
      },
    },
    async (request) => {
      const { userId, grid } = listOf(request, request.params.screen);
      const [problem] = viewProblems(request.body.state, grid);
      if (problem) throw new ApiError(400, problem.key, { params: { name: problem.name } });
      const { rows } = await app.db.query<ViewRow>(
        `INSERT INTO saved_view (user_id, screen, name, state) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, screen, name) DO UPDATE SET state = EXCLUDED.state, updated_at = now()
         RETURNING id, name, state`,
        [userId, request.params.screen, request.body.name.trim(), JSON.stringify(request.body.state)],
      );
      return asView(rows[0]!);
    },
  );

  app.delete<{ Params: { screen: string; id: number } }>(
    '/api/views/:screen/:id',
    {
      schema: {
        tags,
        summary: 'Deletes one of my saved views',
        params: {
          type: 'object',
          required: ['screen', 'id'],
          properties: {
            ...screenParams.properties,
            id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
          },
        },
        response: { 200: okReply, ...errors },
      },
    },
    async (request) => {
      const { userId } = listOf(request, request.params.screen);
      const { rows } = await app.db.query(
        'DELETE FROM saved_view WHERE id = $1 AND user_id = $2 AND screen = $3 RETURNING id',
        [request.params.id, userId, request.params.screen],
      );
      if (!rows.length) throw notFound();
      return { ok: true };
    },
  );
};

export default savedViews;
