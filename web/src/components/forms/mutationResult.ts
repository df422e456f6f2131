/** The message of a mutation's typed error result (`... on Error { message }`), if it is one. */
export function errorMessage(result: { readonly __typename: string; readonly message?: string } | null | undefined): string | undefined {
  if (!result) return undefined;
  return 'message' in result && typeof result.message === 'string' ? result.message : undefined;
}

/** The message of a thrown network/GraphQL error, for a toast. */
export function thrownMessage(error: unknown): string | undefined {
  if (error instanceof Error && error.message && !/^(Failed to fetch|NetworkError)/.test(error.message)) return error.message;
  return undefined;
}
