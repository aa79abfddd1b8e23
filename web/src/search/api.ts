/** the results page of a query */
export const searchPath = (query: string) => `/recherche?q=${encodeURIComponent(query.trim())}`;
