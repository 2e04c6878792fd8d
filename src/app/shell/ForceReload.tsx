import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';

/**
 * `/reload?to=<path>`: re-mounts the page at `to` (the spec's force-reload route), so a
 * screen can be refreshed without a full browser reload.
 */
export function ForceReload() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const to = params.get('to');
    navigate(to && to.startsWith('/') && !to.startsWith('//') ? to : '/', { replace: true });
  }, [navigate, params]);
  return null;
}
