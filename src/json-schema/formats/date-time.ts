// RFC 3339 dates and times (the profile of ISO 8601 that JSON Schema names), and ISO 8601 durations.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
// RFC 3339 appendix A: units in order, none skipped between two given ones (P1Y2D and PT1H2S are not durations).
const DURATION_TIME = String.raw`T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S)`;
const DURATION_DATE = String.raw`(?:\d+D|\d+M(?:\d+D)?|\d+Y(?:\d+M(?:\d+D)?)?)`;
const DURATION = new RegExp(String.raw`^P(?:${DURATION_DATE}(?:${DURATION_TIME})?|${DURATION_TIME}|\d+W)$`);

const MINUTES_PER_DAY = 24 * 60;
const LAST_MINUTE_OF_DAY = MINUTES_PER_DAY - 1;

export function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** A full-time: the offset is required; second 60 only where the UTC clock reads 23:59 (a leap second). */
export function isTime(text: string): boolean {
  const match = TIME.exec(text);
  if (match === null) return false;
  const [hour, minute, second] = match.slice(1, 4).map(Number) as [number, number, number];
  const sign = match[4] === "-" ? -1 : 1;
  const [offsetHour, offsetMinute] = match.slice(5).map(Number) as [number, number];
  const offsetValid = match[4] === undefined || (offsetHour <= 23 && offsetMinute <= 59);
  if (!offsetValid || hour > 23 || minute > 59 || second > 60) return false;
  if (second < 60) return true;
  const offset = match[4] === undefined ? 0 : sign * (offsetHour * 60 + offsetMinute);
  const utcMinute = (((hour * 60 + minute - offset) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  return utcMinute === LAST_MINUTE_OF_DAY;
}

export function isDateTime(text: string): boolean {
  const separator = text.search(/[Tt]/);
  return separator !== -1 && isDate(text.slice(0, separator)) && isTime(text.slice(separator + 1));
}

export function isDuration(text: string): boolean {
  return DURATION.test(text);
}
