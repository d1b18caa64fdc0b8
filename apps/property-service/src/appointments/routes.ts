import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, EmptyBodySchema, PageSchema, errorResponses } from '@platform/http';
import {
  AppointmentInputSchema,
  AppointmentListQuerySchema,
  AppointmentParamsSchema,
  AppointmentSchema,
  CancelBodySchema,
  ConfirmBodySchema,
  RescheduleBodySchema,
} from './schemas.js';
import type { AppointmentService } from './service.js';

// The spec names one scope for viewings: `appointments:write` covers reading them too.
const SCOPE = 'appointments:write';
const READS = ' Reading needs `appointments:write` as well (the spec names no read scope).';
const tags = ['Appointments'];
const OVERLAP =
  '409 `conflict` when the host or the prospect already has an open appointment then (`details[].conflicting_id`).';

export const appointmentRoutes: FastifyPluginAsync<{ appointments: AppointmentService }> = async (
  plugin,
  { appointments },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const one = { params: AppointmentParamsSchema };

  app.post(
    '/appointments',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'createAppointment',
        summary: 'Create an appointment',
        description:
          `A single viewing for the prospect of an inquiry, \`proposed\`. Times in the past, an end not after the start or longer than 8 h: 422. ${OVERLAP} ` +
          '409 `conflict` also when the prospect is anonymised or its processing is restricted (GDPR Art. 18).',
        body: AppointmentInputSchema,
        response: { 201: AppointmentSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) => reply.status(201).send(await appointments.create(request.auth.accountId, request.body)),
  );

  app.get(
    '/appointments',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'listAppointments',
        summary: 'List appointments',
        description: `Appointments of the account, newest first, filtered by \`property_id\`, \`status\` and start time (\`from\` ≤ starts_at < \`to\`).${READS}`,
        querystring: AppointmentListQuerySchema,
        response: { 200: PageSchema(AppointmentSchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => appointments.list(request.auth.accountId, request.query),
  );

  app.get(
    '/appointments/:appointmentId',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'getAppointment',
        summary: 'Get an appointment',
        description: READS.trim(),
        ...one,
        response: { 200: AppointmentSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => appointments.get(request.auth.accountId, request.params.appointmentId),
  );

  app.get(
    '/appointments/:appointmentId/ics',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'getAppointmentIcs',
        summary: 'Download an appointment as iCalendar',
        description: `The appointment as an iCalendar event (\`text/calendar\`) in the account's time zone; the UID stays across reschedules, SEQUENCE rises, a cancelled one is \`METHOD:CANCEL\`.${READS}`,
        ...one,
        response: {
          200: { description: 'An iCalendar file.', content: { 'text/calendar': { schema: Type.String() } } },
          ...errorResponses([...AUTH_ERRORS, 404]),
        },
      },
    },
    async (request, reply) => {
      const { appointmentId } = request.params;
      const ics = await appointments.ics(request.auth.accountId, appointmentId);
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', `attachment; filename="${appointmentId}.ics"`)
        .send(ics);
    },
  );

  app.post(
    '/appointments/:appointmentId/confirm',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'confirmAppointment',
        summary: 'Confirm an appointment',
        description:
          '`proposed` → `confirmed`, recording the side; emits `appointment.confirmed`. Otherwise 409 `invalid_transition`.',
        ...one,
        body: ConfirmBodySchema,
        response: { 200: AppointmentSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request) => appointments.confirm(request.auth.accountId, request.params.appointmentId, request.body.by),
  );

  app.post(
    '/appointments/:appointmentId/reschedule',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'rescheduleAppointment',
        summary: 'Reschedule an appointment',
        description: `A new time for a \`proposed\` or \`confirmed\` appointment: back to \`proposed\`, the old time in \`history\`, SEQUENCE + 1; an appointment of a slot leaves it. ${OVERLAP} 409 \`conflict\` also when the prospect's processing is restricted (GDPR Art. 18): a new time is a new invitation.`,
        ...one,
        body: RescheduleBodySchema,
        response: { 200: AppointmentSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request) => appointments.reschedule(request.auth.accountId, request.params.appointmentId, request.body),
  );

  app.post(
    '/appointments/:appointmentId/cancel',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'cancelAppointment',
        summary: 'Cancel an appointment',
        description:
          '`proposed` or `confirmed` → `cancelled` by a side with a reason code; emits `appointment.cancelled`.',
        ...one,
        body: CancelBodySchema,
        response: { 200: AppointmentSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request) =>
      appointments.cancel(request.auth.accountId, request.params.appointmentId, request.body.by, request.body.reason),
  );

  app.post(
    '/appointments/:appointmentId/complete',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'completeAppointment',
        summary: 'Complete an appointment',
        description: '`confirmed` → `completed` (the viewing took place).',
        ...one,
        body: EmptyBodySchema,
        response: { 200: AppointmentSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request) => appointments.complete(request.auth.accountId, request.params.appointmentId),
  );
};
