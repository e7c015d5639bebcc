/**
 * How a person is named everywhere Mnemo shows one — pages, labels, the audit
 * list — whether the name is made in code or in a query, so a person without a
 * name reads the same in a list of channels as on their own Memory page.
 */

/** The handle people are mentioned by: the part of their email before the @. */
export function handleOf(email: string): string {
  return email.split("@")[0];
}

/** The name a person goes by: the one they gave, else their handle (never the full address). */
export function displayName(person: { name: string | null; email: string }): string {
  return person.name ?? handleOf(person.email);
}

/**
 * displayName as an SQL expression over two columns (trusted column names, never
 * input), for queries that build or sort names in the database. The `|| '@'`
 * makes an address without an @ its own handle, as split does.
 */
export function displayNameSql(name: string, email: string): string {
  return `coalesce(${name}, substr(${email}, 1, instr(${email} || '@', '@') - 1))`;
}
