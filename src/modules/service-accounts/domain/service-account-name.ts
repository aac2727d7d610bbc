/** Service account names: like org names (the CLI puts them in a URL path segment), at most 64 characters. */
export const SERVICE_ACCOUNT_NAME = /^[a-zA-Z0-9][a-zA-Z0-9\-_.~]*$/;
export const SERVICE_ACCOUNT_NAME_MAX = 64;
