import fp from 'fastify-plugin';
import { createUserDirectory, type UserDirectory } from '../auth/user-directory.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The user directory (auth/user-directory.ts): the one owner of the user entity's fields and the credentials. */
    users: UserDirectory;
  }
}

/**
 * The user directory as a service: sign-in, registration, password reset and change, the
 * first admin, demo users and the messenger find users and set passwords through it, so the
 * user entity's fields are read as SQL in one place. The entity comes from access.json.
 */
export default fp(
  async (app) => {
    const access = app.definitions.access;
    if (!access) throw new Error('schemas/_access/access.json is missing');
    app.decorate('users', createUserDirectory(app.db, app.tables, access));
  },
  { name: 'users', dependencies: ['db'] },
);
