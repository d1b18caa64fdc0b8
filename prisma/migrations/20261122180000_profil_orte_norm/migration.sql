-- AlterTable
ALTER TABLE "prospects" ADD COLUMN     "profil_orte_norm" TEXT[];

-- Backfill: profil_orte trimmed and lower-cased as the app does it (`normaliseLocation`: JavaScript's
-- trim() and toLowerCase()): the same whitespace set, and ICU's full lower-case mapping, which is
-- what toLowerCase() implements (the database's own collation may be "C", which lower-cases ASCII only).
UPDATE "prospects" SET "profil_orte_norm" = ARRAY(
    SELECT lower(btrim(o, E'\t\n\u000B\f\r \u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF') COLLATE "und-x-icu")
    FROM unnest("profil_orte") WITH ORDINALITY AS entry(o, n)
    ORDER BY n)
WHERE "profil_orte" IS NOT NULL;
