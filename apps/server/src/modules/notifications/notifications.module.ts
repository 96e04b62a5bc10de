import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { createNotificationsRepository } from './notifications.repository.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { createNotificationsService } from './notifications.service.ts';

/** A user's notifications (written by package registration). */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(
    notificationsRoutes(createNotificationsService({ notifications: createNotificationsRepository(core.db) })),
  );
}
