import { useQuery } from '@tanstack/react-query';
import { mediaText } from './media.strings.ts';

async function fetchJsonText(url: string, signal: AbortSignal): Promise<string> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(String(response.status));
  const text = await response.text();
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A JSON file, pretty-printed (left as is when it does not parse). */
export function JsonView({ url }: { url: string }) {
  const file = useQuery({
    queryKey: ['media-json', url],
    queryFn: ({ signal }) => fetchJsonText(url, signal),
    retry: false,
    staleTime: Infinity,
  });
  if (file.isPending) return <span>{mediaText.jsonLoading}</span>;
  if (file.isError) return <span>{mediaText.jsonFailed}</span>;
  return (
    <pre className="lightbox-json" data-testid="lightbox-json">
      {file.data}
    </pre>
  );
}
