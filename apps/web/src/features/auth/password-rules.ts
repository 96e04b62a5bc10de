/** Shortest password the forms accept for a new password (the server only sees its SHA-256). */
export const MIN_PASSWORD_LENGTH = 6;
