/** The message of a mutation's typed error result (`... on Error { message }`), if it is one. */
export function errorMessage(result: { readonly __typename: string; readonly message?: string } | null | undefined): string | undefined {
  if (!result) return undefined;
  return 'message' in result && typeof result.message === 'string' ? result.message : undefined;
}

/**
 * A mutation's typed refusal: its machine-readable code (BaseError,
 * ValidationError: `... on BaseError { code }`), the input field at fault
 * (`... on ValidationError { field }`) and its message. Screens tell one
 * refusal from another by code and field, never by the wording.
 */
export type Refusal = { code?: string; field?: string | null; message?: string };

export function refusalOf(
  result: { readonly __typename: string; readonly code?: string; readonly field?: string | null; readonly message?: string } | null | undefined,
): Refusal {
  if (!result) return {};
  return { code: result.code, field: result.field, message: errorMessage(result) };
}

/** The message of a thrown network/GraphQL error, for a toast. */
export function thrownMessage(error: unknown): string | undefined {
  if (error instanceof Error && error.message && !/^(Failed to fetch|NetworkError)/.test(error.message)) return error.message;
  return undefined;
}
