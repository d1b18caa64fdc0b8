export { sendNotices, smtpTarget, reasonOf, type SmtpSettings, type Notice, type SendOutcome } from './mailer.js';
