/** The content types an upload may have anywhere; each resource allows a subset. */
export const CONTENT_TYPES = {
  'image/jpeg': { signature: true, image: true, aliases: ['image/jpg', 'image/pjpeg'] },
  'image/png': { signature: true, image: true, aliases: [] },
  'image/webp': { signature: true, image: true, aliases: [] },
  'application/pdf': { signature: true, image: false, aliases: ['application/x-pdf'] },
  'application/zip': { signature: true, image: false, aliases: ['application/x-zip-compressed', 'application/x-zip'] },
  'application/json': { signature: false, image: false, aliases: ['text/json'] },
  'text/markdown': { signature: false, image: false, aliases: ['text/x-markdown'] },
  'text/plain': { signature: false, image: false, aliases: [] },
  'application/yaml': { signature: false, image: false, aliases: ['application/x-yaml', 'text/yaml', 'text/x-yaml'] },
} as const satisfies Record<string, { signature: boolean; image: boolean; aliases: readonly string[] }>;

export type ContentType = keyof typeof CONTENT_TYPES;

/** Types a client may declare when it does not know better; the bytes decide then (signature types only). */
const UNDECLARED = new Set(['', 'application/octet-stream']);

/** The canonical name of a declared or sniffed type; `null` when nothing usable was declared; the lower-cased name when unknown. */
export function canonicalType(value: string | undefined): ContentType | string | null {
  const name = (value ?? '').split(';')[0]!.trim().toLowerCase();
  if (UNDECLARED.has(name)) return null;
  for (const [type, spec] of Object.entries(CONTENT_TYPES)) {
    if (type === name || (spec.aliases as readonly string[]).includes(name)) return type;
  }
  return name;
}

export interface TypeEvidence {
  /** The part's `Content-Type`. */
  declared: string | undefined;
  /** What the bytes are, by their signature (`file-type`), or undefined without a known signature. */
  sniffed: string | undefined;
  /** Whether the whole content is valid UTF-8. */
  utf8: boolean;
}

/**
 * The content's type, or `null` when it is not allowed: a format with a signature is what its
 * bytes say (and must agree with a declared type); a text type has no signature, so it must be
 * declared and the content valid UTF-8. Either way it must be on the allow-list.
 */
export function judgeType(
  { declared, sniffed, utf8 }: TypeEvidence,
  allowed: readonly ContentType[],
): ContentType | null {
  const claimed = canonicalType(declared);
  const detected = sniffed === undefined ? null : canonicalType(sniffed);
  let type: string | null;
  if (detected !== null) {
    if (claimed !== null && claimed !== detected) return null;
    type = detected;
  } else {
    if (claimed === null || !(claimed in CONTENT_TYPES)) return null;
    if (CONTENT_TYPES[claimed as ContentType].signature || !utf8) return null;
    type = claimed;
  }
  return (allowed as readonly string[]).includes(type) ? (type as ContentType) : null;
}

export function isImageType(type: ContentType): boolean {
  return CONTENT_TYPES[type].image;
}
