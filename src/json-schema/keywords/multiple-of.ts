// Quotients this small that come out whole in binary floating point are whole in decimal too.
const EXACT_QUOTIENT_LIMIT = 2 ** 32;

/**
 * `value` is a whole multiple of `divisor`, judged in decimal as a JSON author means it: 0.3 is a
 * multiple of 0.1 although 0.3 / 0.1 is 2.9999999999999996 in binary floating point, and 1e20 is
 * not a multiple of 0.7 although their floating-point quotient is a (huge) whole number.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (!Number.isFinite(value)) return false;
  const quotient = value / divisor;
  if (Number.isInteger(quotient) && Math.abs(quotient) <= EXACT_QUOTIENT_LIMIT) return true;
  const dividend = toDecimal(value);
  const unit = toDecimal(divisor);
  const scale = Math.max(dividend.scale, unit.scale);
  return rescale(dividend, scale) % rescale(unit, scale) === 0n;
}

/** `value` as `digits × 10^-scale`, read exactly from the shortest decimal that denotes it. */
interface Decimal {
  readonly digits: bigint;
  readonly scale: number;
}

function toDecimal(value: number): Decimal {
  const text = String(value);
  const exponentAt = text.indexOf("e");
  const mantissa = exponentAt === -1 ? text : text.slice(0, exponentAt);
  const exponent = exponentAt === -1 ? 0 : Number(text.slice(exponentAt + 1));
  const pointAt = mantissa.indexOf(".");
  const fraction = pointAt === -1 ? "" : mantissa.slice(pointAt + 1);
  const whole = pointAt === -1 ? mantissa : mantissa.slice(0, pointAt);
  return { digits: BigInt(whole + fraction), scale: fraction.length - exponent };
}

function rescale({ digits, scale }: Decimal, target: number): bigint {
  return digits * 10n ** BigInt(target - scale);
}
