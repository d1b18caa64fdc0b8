// The public surface of the appointments resource (viewings): other resources and the app use only this.
export { appointmentRoutes } from './routes.js';
export {
  createAppointmentService,
  cancelAppointmentsOfProperty,
  cancelAppointmentsOfProspects,
  endViewingsOfForgotten,
  cancelAppointmentsOfSlot,
  holdViewableProperty,
  type AppointmentService,
} from './service.js';
export { APPOINTMENTS } from './kind.js';
export { singleAppointmentOfHostDuring, prospectsSeenForProperty, prospectsBusyDuring } from './overlap-sql.js';
export { toAppointment } from './mapping.js';
export { appointmentRepository, type NewAppointment } from './repository.js';
/** The account's appointments starting in [from, to) (the CLI's `appointments today`): read only. */
export { appointmentsBetween } from './repository.js';
export { AppointmentSchema } from './schemas.js';
/** The account's prospect's appointments (the Auskunft): read only. */
export { appointmentsOfProspect } from './prospect-appointments-sql.js';
