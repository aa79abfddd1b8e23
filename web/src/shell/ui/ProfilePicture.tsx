import { useState } from 'react';
import { profilePictureUrl } from '../../identity/session';

interface ProfilePictureProps {
  pseudo: string;
  profilePicture: string | null;
  /** Pixel size of the round picture (40 in the top bar, 150 on a profile page). */
  size: number;
  /** Empty when a neighbouring text already names the person. */
  alt?: string;
}

/** Round profile picture from /uploads/profile_pics, with an initial as fallback. */
export function ProfilePicture({ pseudo, profilePicture, size, alt }: ProfilePictureProps) {
  const src = profilePictureUrl({ profile_picture: profilePicture });
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const label = alt ?? `Photo de profil de ${pseudo || "l'utilisateur"}`;
  const style = { width: size, height: size, fontSize: Math.round(size * 0.45) };

  if (failedSrc === src) {
    return (
      <span
        className="avatar avatar--fallback"
        style={style}
        role={label ? 'img' : undefined}
        aria-label={label || undefined}
        aria-hidden={label ? undefined : true}
      >
        {(pseudo.trim()[0] ?? '?').toUpperCase()}
      </span>
    );
  }
  return (
    <img
      className="avatar"
      src={src}
      alt={label}
      width={size}
      height={size}
      style={style}
      onError={() => setFailedSrc(src)}
    />
  );
}
