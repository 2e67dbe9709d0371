/** Missing, null, or only white space: what the contract treats as "not given". */
export function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

export function blankToNull(value: string | null | undefined): string | null {
  return value === null || value === undefined || isBlank(value) ? null : value;
}
