/** Whether a database error is a unique-constraint violation (PostgreSQL 23505, SQLite 2067/1555). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number };
  return e?.code === '23505' || e?.errcode === 2067 || e?.errcode === 1555;
}
