import type { PropertyType } from '@platform/db';
import {
  eurosToCents,
  monthsOf,
  monthsToHundredths,
  percentOf,
  percentToMilli,
  withVat,
  type VatAmounts,
} from './money.js';

/**
 * The German commission rules of DESIGN §11, as pure functions: `judgeCommission` when terms are
 * set (only what is unlawful whoever engaged the broker is refused), `commissionViolations` where
 * the terms must be lawful as they stand (publication), `settleCommission` (which checks them
 * again) when a property is sold or let.
 * Bump the version whenever a rule or a computation changes, so a stored settlement says which
 * rules made it. /2: equal sale shares without `engaged_by` are lawful; unequal ones and a tenant
 * share without it are undecided (asked at publication and settlement), no longer refused when set.
 */
export const COMMISSION_RULES_VERSION = 'commission-de/2';

/** A property's type as the data model has it; the rules tell the residential ones (apartment, house) apart. */
export type { PropertyType };
/** Which deal is settled: `sale` (mark-sold) or `letting` (mark-rented). */
export type Marketing = 'sale' | 'letting';
/** Who engaged the broker. In a letting `seller` stands for the landlord and `buyer` for the tenant. */
export type EngagedBy = 'seller' | 'buyer' | 'both';
export type Party = 'seller' | 'buyer' | 'landlord' | 'tenant';

/**
 * The commission terms of a property. Sales use the percentages of the purchase price; lettings
 * use months: `tenant_months` / `landlord_months` are numbers of net monthly cold rents (VAT is
 * added on top), at most two decimals (1.5 = one and a half rents). Each marketing ignores the
 * other's fields, so one property may carry terms for both.
 */
export interface CommissionTerms {
  buyer_percent?: number | null;
  seller_percent?: number | null;
  engaged_by?: EngagedBy | null;
  /** Default `true`: the consumer protection of §656a–d BGB applies unless the buyer is a business. */
  buyer_is_consumer?: boolean | null;
  tenant_months?: number | null;
  landlord_months?: number | null;
}

export interface CommissionViolation {
  /** `commission.<field>`, the detail's field of the 422. */
  field: string;
  reason: 'not_allowed' | 'missing' | 'invalid_format';
  /** Names the rule, e.g. "§656c BGB: …". */
  message: string;
}

/** Which rule decided: the regime is stored with the settlement to explain it. */
export type CommissionRegime = 'bgb_656c' | 'bgb_656d' | 'free_sale' | 'wovermittg' | 'free_letting';

export interface SettlementLine extends VatAmounts {
  party: Party;
  /** Purchase price (sale) or monthly cold rent (letting), in cents. */
  base_cents: number;
  /** Sales: thousandths of a percent (3.57 % = 3570); lettings: `null`. */
  percent_milli: number | null;
  /** Lettings: hundredths of a monthly cold rent (2 months = 200); sales: `null`. */
  months_hundredths: number | null;
  /** §656d BGB: this invoice is due only after the named party's invoice is paid. */
  due_after: Party | null;
}

export interface SettlementInput {
  property_type: PropertyType;
  marketing: Marketing;
  /** Whole euros: the purchase price (sale) or the monthly cold rent (letting). */
  price_eur: number;
  /** YYYY-MM-DD, the day the sale or letting was concluded: picks the VAT rate. */
  date: string;
  terms: CommissionTerms;
}

/**
 * What the rules say of terms for one type and marketing:
 * - `lawful`: they may be agreed, advertised and settled (`violations` is empty);
 * - `unlawful`: broken whoever engaged the broker, or a rate in a bad format: refused when set;
 * - `undecided`: lawful for some engagements only, and `engaged_by` is not set. Accepted and stored
 *   when set; the question (`commission.engaged_by` `missing`) is asked where it decides
 *   something: when the advert must state the commission (publication) and at the settlement.
 */
export interface CommissionJudgement {
  verdict: 'lawful' | 'unlawful' | 'undecided';
  violations: CommissionViolation[];
}

export type SettlementResult =
  | { ok: true; version: string; regime: CommissionRegime; lines: SettlementLine[] }
  | { ok: false; version: string; violations: CommissionViolation[] };

const RESIDENTIAL: ReadonlySet<PropertyType> = new Set(['apartment', 'house']);

export const RULE_MESSAGES = {
  equalShares:
    '§656c BGB: a broker engaged by both the seller and a consumer buyer of an apartment or house charges both the same commission (buyer_percent must equal seller_percent).',
  buyerAtMostSeller:
    '§656d BGB: when only the seller engaged the broker, the consumer buyer of an apartment or house pays at most as much as the seller (buyer_percent at most seller_percent), due only after the seller has paid.',
  sellerAtMostBuyer:
    '§656d BGB: when only the consumer buyer engaged the broker, the seller of an apartment or house pays at most as much as the buyer (seller_percent at most buyer_percent), due only after the buyer has paid.',
  engagedByMissing:
    '§656c/§656d BGB: unequal shares of the seller and a consumer buyer of an apartment or house are lawful only when one side alone engaged the broker and the other pays less: say who engaged it (engaged_by).',
  tenantOrdered:
    '§2 Abs. 1a WoVermittG: the tenant of an apartment or house pays commission only when the tenant alone engaged the broker (engaged_by: buyer).',
  tenantCap: '§3 Abs. 2 WoVermittG: the tenant pays at most two monthly cold rents plus VAT (tenant_months at most 2).',
} as const;

const TENANT_CAP_HUNDREDTHS = 200;

interface Scaled {
  seller: number;
  buyer: number;
  landlord: number;
  tenant: number;
}

/** The terms as integers, or `invalid_format` violations for rates with too many decimals or below 0. */
function scaleTerms(
  marketing: Marketing,
  terms: CommissionTerms,
): { scaled: Scaled; violations: CommissionViolation[] } {
  const violations: CommissionViolation[] = [];
  const read = (
    key: keyof CommissionTerms & `${string}_${'percent' | 'months'}`,
    convert: (value: number) => number | null,
    unit: string,
  ): number => {
    const value = terms[key];
    if (value === null || value === undefined) return 0;
    const scaled = convert(value);
    if (scaled === null || scaled < 0) {
      violations.push({
        field: `commission.${key}`,
        reason: 'invalid_format',
        message: `${key} must be a number of ${unit}, at least 0.`,
      });
      return 0;
    }
    return scaled;
  };
  const scaled: Scaled =
    marketing === 'sale'
      ? {
          seller: read('seller_percent', percentToMilli, 'percent with at most three decimals'),
          buyer: read('buyer_percent', percentToMilli, 'percent with at most three decimals'),
          landlord: 0,
          tenant: 0,
        }
      : {
          seller: 0,
          buyer: 0,
          landlord: read('landlord_months', monthsToHundredths, 'months with at most two decimals'),
          tenant: read('tenant_months', monthsToHundredths, 'months with at most two decimals'),
        };
  return { scaled, violations };
}

function regimeOf(type: PropertyType, marketing: Marketing, terms: CommissionTerms): CommissionRegime {
  const residential = RESIDENTIAL.has(type);
  if (marketing === 'letting') return residential ? 'wovermittg' : 'free_letting';
  if (!residential || (terms.buyer_is_consumer ?? true) === false) return 'free_sale';
  return terms.engaged_by === 'both' ? 'bgb_656c' : 'bgb_656d';
}

const LAWFUL: CommissionJudgement = { verdict: 'lawful', violations: [] };
const refuse = (field: string, message: string): CommissionJudgement => ({
  verdict: 'unlawful',
  violations: [{ field: `commission.${field}`, reason: 'not_allowed', message }],
});
const askWhoEngaged = (message: string): CommissionJudgement => ({
  verdict: 'undecided',
  violations: [{ field: 'commission.engaged_by', reason: 'missing', message }],
});

function judgeRules(regime: CommissionRegime, terms: CommissionTerms, s: Scaled): CommissionJudgement {
  const engagedBy = terms.engaged_by ?? null;
  switch (regime) {
    case 'bgb_656c':
      return s.buyer === s.seller ? LAWFUL : refuse('buyer_percent', RULE_MESSAGES.equalShares);
    case 'bgb_656d':
      if (engagedBy === 'buyer')
        return s.seller <= s.buyer ? LAWFUL : refuse('seller_percent', RULE_MESSAGES.sellerAtMostBuyer);
      if (engagedBy === 'seller')
        return s.buyer <= s.seller ? LAWFUL : refuse('buyer_percent', RULE_MESSAGES.buyerAtMostSeller);
      // Nobody said who engaged the broker. A buyer who pays nothing reads as "the seller engaged".
      // Equal shares are lawful whoever engaged (§656c when both did, §656d when either side alone
      // did). Any other split is lawful for exactly one engaging side (the side paying more), so it
      // is undecided, never refused here.
      return s.buyer === 0 || s.buyer === s.seller ? LAWFUL : askWhoEngaged(RULE_MESSAGES.engagedByMissing);
    case 'wovermittg':
      if (s.tenant === 0) return LAWFUL;
      if (engagedBy !== null && engagedBy !== 'buyer') return refuse('tenant_months', RULE_MESSAGES.tenantOrdered);
      // Above two rents no engagement makes a tenant share lawful: refused whether or not engaged_by is set.
      if (s.tenant > TENANT_CAP_HUNDREDTHS) return refuse('tenant_months', RULE_MESSAGES.tenantCap);
      // By analogy with the sale's shares: up to two rents the tenant's share is lawful exactly when
      // the tenant engaged the broker, so without engaged_by it is undecided (asked at publication
      // and at mark-rented), not refused when set.
      return engagedBy === 'buyer' ? LAWFUL : askWhoEngaged(RULE_MESSAGES.tenantOrdered);
    case 'free_sale':
    case 'free_letting':
      return LAWFUL;
  }
}

/** What the rules say of the terms for this type and marketing (see `CommissionJudgement`). */
export function judgeCommission(type: PropertyType, marketing: Marketing, terms: CommissionTerms): CommissionJudgement {
  const { scaled, violations } = scaleTerms(marketing, terms);
  if (violations.length > 0) return { verdict: 'unlawful', violations };
  return judgeRules(regimeOf(type, marketing, terms), terms, scaled);
}

/**
 * Every reason the terms are not lawful as they stand for this type and marketing, the open
 * question of who engaged the broker included; `[]` when they may be advertised and settled.
 */
export function commissionViolations(
  type: PropertyType,
  marketing: Marketing,
  terms: CommissionTerms,
): CommissionViolation[] {
  return judgeCommission(type, marketing, terms).violations;
}

/**
 * Under §656d the side that did not engage the broker waits for the engaging side's payment.
 * Without engaged_by (settled only when the buyer pays nothing or both pay equal shares) the seller
 * counts as the engaging side, so the consumer buyer's invoice waits for the seller's and says so
 * (§656d Abs. 1 Satz 2). That is the conservative choice for the party §656a–d protect: required
 * when the seller alone engaged (the usual case), harmless when both did (§656c: the claim on the
 * buyer merely falls due later than it could). Only if the buyer alone engaged would the seller's
 * invoice fall due too early; terms that state engaged_by are settled exactly.
 */
function dueAfter(regime: CommissionRegime, terms: CommissionTerms, party: Party): Party | null {
  if (regime !== 'bgb_656d') return null;
  const engaging: Party = terms.engaged_by === 'buyer' ? 'buyer' : 'seller';
  return party === engaging ? null : engaging;
}

/**
 * The settlement of a sale or letting: one line per party whose rate is above 0 (seller before
 * buyer, landlord before tenant), or the violations when the terms break a rule.
 */
export function settleCommission(input: SettlementInput): SettlementResult {
  const version = COMMISSION_RULES_VERSION;
  const violations = commissionViolations(input.property_type, input.marketing, input.terms);
  if (violations.length > 0) return { ok: false, version, violations };

  const regime = regimeOf(input.property_type, input.marketing, input.terms);
  const { scaled } = scaleTerms(input.marketing, input.terms);
  const base = eurosToCents(input.price_eur);
  if (base < 0) throw new RangeError(`the price must not be negative: ${input.price_eur}`);
  const parties: Party[] = input.marketing === 'sale' ? ['seller', 'buyer'] : ['landlord', 'tenant'];
  const lines = parties
    .filter((party) => scaled[party] > 0)
    .map((party): SettlementLine => {
      const sale = input.marketing === 'sale';
      const net = sale ? percentOf(base, scaled[party]) : monthsOf(base, scaled[party]);
      return {
        party,
        base_cents: base,
        percent_milli: sale ? scaled[party] : null,
        months_hundredths: sale ? null : scaled[party],
        ...withVat(net, input.date),
        due_after: dueAfter(regime, input.terms, party),
      };
    });
  return { ok: true, version, regime, lines };
}
