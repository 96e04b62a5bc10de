import { randomUUID } from 'node:crypto';
import type { FakeResponse } from '../shared/http-server.ts';

/** Contract F2: `{"errors":[{id, status (string), code, title, detail, source?}]}`; `code` is what clients branch on. */
export function ascError(
  status: number,
  code: string,
  title: string,
  detail: string,
  source?: Record<string, string>,
): FakeResponse {
  return {
    status,
    body: {
      errors: [{ id: randomUUID(), status: String(status), code, title, detail, ...(source ? { source } : {}) }],
    },
  };
}

export const notAuthorized = () =>
  ascError(
    401,
    'NOT_AUTHORIZED',
    'Authentication credentials are missing or invalid.',
    'Provide a properly configured and signed bearer token, and make sure that it has not expired. Learn more about Generating Tokens for API Requests https://developer.apple.com/go/?id=api-generating-tokens',
  );

export const agreementMissing = () =>
  ascError(
    403,
    'FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED',
    'A required agreement is missing or has expired.',
    'This request requires an in-effect agreement that has not been signed or has expired.',
  );

export const rateLimited = () =>
  ascError(
    429,
    'RATE_LIMIT_EXCEEDED',
    'The request rate limit has been reached.',
    "We've received too many requests for this API. Please wait and try again or slow down your request rate.",
  );

export const notFound = (type: string, id: string) =>
  ascError(
    404,
    'NOT_FOUND',
    'The specified resource does not exist',
    `There is no resource of type '${type}' with id '${id}'`,
  );

export const pathNotFound = (path: string) =>
  ascError(
    404,
    'NOT_FOUND',
    'The specified resource does not exist',
    `The path provided does not match a defined resource type. (${path})`,
  );

export const methodNotAllowed = (method: string) =>
  ascError(
    405,
    'METHOD_NOT_ALLOWED',
    'The request method is not valid for the resource path.',
    `The request method '${method}' is not valid for the resource path.`,
  );

export const parameterInvalid = (parameter: string, value: string) =>
  ascError(
    400,
    'PARAMETER_ERROR.INVALID',
    'A parameter has an invalid value',
    `'${value}' is not a valid value for the parameter '${parameter}'`,
    { parameter },
  );

export const entityUnparsable = () =>
  ascError(
    400,
    'ENTITY_UNPARSABLE',
    'The request entity is not valid JSON',
    'The provided entity is missing a required field or is not valid JSON.',
  );

export const entityError = (detail: string) =>
  ascError(409, 'ENTITY_ERROR', 'There is a problem with the request entity', detail);

export const attributeInvalid = (attribute: string, value: string) =>
  ascError(
    409,
    'ENTITY_ERROR.ATTRIBUTE.INVALID',
    'An attribute in the provided entity has invalid value',
    `An invalid value '${value}' was provided for the parameter '${attribute}'.`,
    {
      pointer: `/data/attributes/${attribute}`,
    },
  );

export const attributeRequired = (attribute: string) =>
  ascError(
    409,
    'ENTITY_ERROR.ATTRIBUTE.REQUIRED',
    'The provided entity is missing a required attribute',
    `You must provide a value for the attribute '${attribute}' with this request`,
    {
      pointer: `/data/attributes/${attribute}`,
    },
  );

export const relationshipRequired = (name: string) =>
  ascError(
    409,
    'ENTITY_ERROR.RELATIONSHIP.REQUIRED',
    'The provided entity is missing a required relationship',
    `The relationship '${name}' is required but was not provided with this request.`,
    {
      pointer: `/data/relationships/${name}`,
    },
  );

export const relationshipNotAllowed = () =>
  ascError(
    409,
    'ENTITY_ERROR.RELATIONSHIP.NOT_ALLOWED',
    'The provided entity includes a relationship that is not allowed',
    'No devices can be associated to Provisioning Profiles for the App Store.',
    {
      pointer: '/data/relationships/devices',
    },
  );

export const forbidden = (detail: string) =>
  ascError(403, 'FORBIDDEN_ERROR', 'This request is forbidden for security reasons', detail);
