import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '@platform/http';

export const PORTAL_PROTOCOLS = ['sftp', 'ftp', 'ftps'] as const;
export const PORTAL_MODES = ['teil', 'voll'] as const;

/** The port a protocol uses when none is given. */
export const DEFAULT_PORTS: Record<(typeof PORTAL_PROTOCOLS)[number], number> = { sftp: 22, ftp: 21, ftps: 21 };

const fields = {
  transfer: StringEnum(PORTAL_PROTOCOLS, {
    description:
      "`sftp` (SSH), `ftp`, or `ftps` (FTP with explicit TLS, `AUTH TLS`, the certificate verified) — as the portal's import documentation names it.",
  }),
  host: Type.String({
    minLength: 1,
    maxLength: 253,
    pattern: '^[A-Za-z0-9.-]+$|^\\[?[0-9A-Fa-f:.]+\\]?$',
    description: "The import server's host name, e.g. `sftp.immobilienscout24.de`.",
  }),
  port: Type.Integer({ minimum: 1, maximum: 65535, description: 'Default 22 for `sftp`, 21 for `ftp` and `ftps`.' }),
  username: Type.String({
    minLength: 1,
    maxLength: 200,
    pattern: '^[^\\x00-\\x1f]+$',
    description: 'The import account, as the portal gave it.',
  }),
  secret: Type.String({
    minLength: 1,
    maxLength: 16_384,
    writeOnly: true,
    description:
      "The account's password, or for `sftp` a private key (OpenSSH or PEM, unencrypted). Stored encrypted, never shown again.",
  }),
  folder: Type.String({
    minLength: 1,
    maxLength: 500,
    pattern: '^[^\\x00-\\x1f]+$',
    description:
      'The folder the files go into, absolute or relative to the login folder; default `.` (the login folder).',
  }),
  anbieternr: Type.String({
    minLength: 1,
    maxLength: 50,
    pattern: '^[A-Za-z0-9_.-]+$',
    description: "The provider's id at the portal (OpenImmo `anbieternr`), e.g. the ImmoScout24 customer number.",
  }),
  host_key_fingerprint: Type.String({
    pattern: '^SHA256:[A-Za-z0-9+/]{43}$',
    description:
      "sftp: the server's host key as `ssh-keygen -l` prints it (`SHA256:…`), if the portal names it. Without it the key seen at the first login is kept (trust on first use); a server with another key is then refused.",
  }),
  mode: StringEnum(PORTAL_MODES, {
    description:
      '`teil` (default): a full transfer first and on request, then each change as a partial one (`umfang="TEIL"`); `voll`: every transfer holds all live listings.',
  }),
};

const PORTAL_DESCRIPTION =
  "The portal's import account the channel pushes its listings to, as ZIP files (OpenImmo XML with the photos). Creating or changing it connects and " +
  'logs in once: a failure is a 422 that says what failed (the host name, the connection, the TLS handshake, the login, the folder or the permission).';

export const PortalSettingsInputSchema = Type.Object(
  {
    transfer: fields.transfer,
    host: fields.host,
    port: Type.Optional(fields.port),
    username: fields.username,
    secret: fields.secret,
    folder: Type.Optional(fields.folder),
    anbieternr: fields.anbieternr,
    mode: Type.Optional(fields.mode),
    host_key_fingerprint: Type.Optional(fields.host_key_fingerprint),
  },
  { additionalProperties: false, description: PORTAL_DESCRIPTION },
);
export type PortalSettingsInput = Static<typeof PortalSettingsInputSchema>;

/** The settings after a merge patch: every member present (the secret is the stored one unless replaced). */
export const PortalSettingsFieldsSchema = Type.Object(
  {
    transfer: fields.transfer,
    host: fields.host,
    port: fields.port,
    username: fields.username,
    secret: fields.secret,
    folder: fields.folder,
    anbieternr: fields.anbieternr,
    mode: fields.mode,
    host_key_fingerprint: Type.Optional(fields.host_key_fingerprint),
  },
  { additionalProperties: false, description: PORTAL_DESCRIPTION },
);
export type PortalSettings = Static<typeof PortalSettingsFieldsSchema>;

export const PortalSettingsViewSchema = Type.Object(
  {
    transfer: fields.transfer,
    host: Type.String(),
    port: Type.Integer(),
    username: Type.String(),
    folder: Type.String(),
    anbieternr: Type.String(),
    mode: fields.mode,
    host_key_fingerprint: Nullable(
      Type.String({ description: "sftp: the server's host key the transfers require (`SHA256:…`); null for FTP(S)." }),
    ),
  },
  { description: `${PORTAL_DESCRIPTION} The secret is never shown.` },
);
export type PortalSettingsView = Static<typeof PortalSettingsViewSchema>;

/** The settings a create request gives, with the defaults filled in. */
export function withDefaults(input: PortalSettingsInput): PortalSettings {
  return {
    ...input,
    port: input.port ?? DEFAULT_PORTS[input.transfer],
    folder: input.folder ?? '.',
    mode: input.mode ?? 'teil',
  };
}
