// The page's words for every refusal the service can send, by problem `code` and `params`.
// STUB: the catalogue is being written; until then the service's own detail is shown.

/** Plain words for `problem` (a problem document), naming seats by `names`. */
export function explain(problem, { names = [] } = {}) {
  void names;
  return problem.detail || problem.title || 'Something went wrong.';
}
