/** Errors that cross layers: the engine reacts to them whichever answer source threw them. */

/** The answer could not be obtained for a reason that is not the model's fault. */
export class AnswerUnavailableError extends Error {}

/**
 * The provider refused the key (401/403). Not a per-problem failure: every other request would
 * fail the same way, so the engine stops the whole run with this message.
 */
export class AuthenticationError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = 'AuthenticationError';
    this.status = status;
  }
}
