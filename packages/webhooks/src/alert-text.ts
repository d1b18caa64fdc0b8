import type { Notice } from '@platform/mail';
import type { AlertRecipient, DueAlert } from './alerts-sql.js';
import { PAUSE_AFTER_MS, RETRY_DELAYS_MS } from './schedule.js';

export interface AlertFacts {
  endpoint: Pick<DueAlert, 'id' | 'url' | 'service' | 'kind' | 'failing_since' | 'paused_at'>;
  lastFailure: { at: Date; statusCode: number | null; errorClass: string } | null;
  held: number;
}

/** The URL as shown in an alert: scheme, host and path; a query or credentials may carry secrets. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search ? ' (query left out)' : ''}`;
  } catch {
    return '(an invalid URL)';
  }
}

const FAILURES: Record<string, string> = {
  timeout: 'no answer within the delivery timeout',
  connection_error: 'the connection failed (refused, reset or a DNS error)',
  blocked_address: 'the host resolves to an address webhooks may not reach',
  redirect: 'a redirect (deliveries do not follow redirects)',
  http_status: 'a status outside 2xx',
};

function failureLine(lastFailure: AlertFacts['lastFailure']): string {
  if (!lastFailure) return 'Last failed attempt: (its record is gone)';
  const status = lastFailure.statusCode !== null ? `HTTP ${lastFailure.statusCode}, ` : '';
  return `Last failed attempt: ${lastFailure.at.toISOString()}: ${status}${FAILURES[lastFailure.errorClass] ?? lastFailure.errorClass}`;
}

const hours = (ms: number) => `${Math.round(ms / 3_600_000)} h`;
const schedule = RETRY_DELAYS_MS.map((ms) => (ms < 3_600_000 ? `${ms / 60_000} min` : hours(ms))).join(', ');

/** The owner's e-mail about a failing or paused endpoint: what happened and what to do; never a secret. */
export function alertNotice(recipient: AlertRecipient, facts: AlertFacts): Notice {
  const { endpoint } = facts;
  const url = shownUrl(endpoint.url);
  const paused = endpoint.kind === 'paused';
  const apps = recipient.applications.map((a) => `${a.name} (${a.id})`).join(', ');
  const path = `/v1/webhooks/${endpoint.id}`;
  const lines = [
    'Hello,',
    '',
    paused
      ? `a webhook endpoint of your application ${apps} was paused: none of its deliveries succeeded for ${hours(PAUSE_AFTER_MS)}.`
      : `a webhook endpoint of your application ${apps} is failing: none of its deliveries has succeeded since ${endpoint.failing_since.toISOString()}.`,
    '',
    `  Endpoint: ${endpoint.id} (service ${endpoint.service})`,
    `  URL: ${url}`,
    `  Failing since: ${endpoint.failing_since.toISOString()}`,
    ...(paused && endpoint.paused_at ? [`  Paused at: ${endpoint.paused_at.toISOString()}`] : []),
    `  ${failureLine(facts.lastFailure)}`,
    '',
    paused
      ? `Nothing is sent to it while it is paused; ${facts.held} deliveries are held and are sent when it is resumed.`
      : `Failed deliveries are retried after ${schedule}; after ${hours(PAUSE_AFTER_MS)} without a success the endpoint is paused.`,
    '',
    'What to do:',
    `  1. Look at the failed attempts (GET ${path}/deliveries?status=failed) and fix the receiver.`,
    ...(paused
      ? [`  2. Resume the endpoint: PATCH ${path} with {"status": "active"}; the held deliveries are sent then.`]
      : []),
    `  ${paused ? 3 : 2}. Send the failed deliveries again: POST ${path}/redeliveries with {"since": "${endpoint.failing_since.toISOString()}"}.`,
    '',
    'You receive at most one such e-mail a day per endpoint.',
  ];
  return {
    to: recipient.email,
    subject: paused ? `Webhook endpoint paused: ${url}` : `Webhook endpoint failing: ${url}`,
    text: `${lines.join('\n')}\n`,
  };
}
