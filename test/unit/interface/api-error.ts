import { expect } from 'vitest';
import { ApiError } from '../../../src/core/errors';

/** Runs `fn`, which must throw an ApiError, and returns it for assertions on status and message. */
export function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected an ApiError, nothing was thrown');
}

/** Asserts `fn` throws ApiError(status) whose message contains `fragment`. */
export function expectApiError(fn: () => unknown, status: number, fragment: string): ApiError {
  const error = apiError(fn);
  expect(error.status).toBe(status);
  expect(error.message).toContain(fragment);
  return error;
}
