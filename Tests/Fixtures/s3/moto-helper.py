"""What the bucket tests ask of boto3 and botocore, run with the test venv's python
(scripts/setup --test makes it): users and buckets on a moto server, uploads, and
signatures made by botocore's own SigV4 signer on fixed inputs, to check photogrid's
signer against a second implementation.

    moto-helper.py admin ENDPOINT                      -> "KEY SECRET" of a user allowed everything
    moto-helper.py reader ENDPOINT KEY SECRET BUCKET   -> "KEY SECRET" of a user who may only read BUCKET
    moto-helper.py bucket ENDPOINT KEY SECRET BUCKET   makes BUCKET
    moto-helper.py public ENDPOINT KEY SECRET BUCKET   lets anyone read BUCKET's objects
    moto-helper.py upload ENDPOINT KEY SECRET BUCKET PREFIX FOLDER   puts FOLDER's files under PREFIX
    moto-helper.py many ENDPOINT KEY SECRET BUCKET PREFIX COUNT FILE puts FILE as COUNT keys
    moto-helper.py get ENDPOINT KEY SECRET BUCKET KEY OUT
    moto-helper.py sign METHOD URL SECONDS KEY SECRET TOKEN PAYLOAD   -> the payload hash signed, and the Authorization header
"""
import datetime
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

import boto3
import botocore.auth
import botocore.awsrequest
import botocore.credentials


def client(service, endpoint, key, secret):
    return boto3.client(service, endpoint_url=endpoint, region_name="us-east-1",
                        aws_access_key_id=key, aws_secret_access_key=secret)


def user(endpoint, key, secret, name, policy):
    iam = client("iam", endpoint, key, secret)
    iam.create_user(UserName=name)
    made = iam.create_access_key(UserName=name)["AccessKey"]
    iam.put_user_policy(UserName=name, PolicyName="p", PolicyDocument=json.dumps(policy))
    print(made["AccessKeyId"], made["SecretAccessKey"])


def main(args):
    verb = args[0]
    if verb == "admin":
        # The server counts its first three actions as unauthenticated: these three.
        user(args[1], "setup", "setup", "admin",
             {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]})
    elif verb == "reader":
        endpoint, key, secret, bucket = args[1:5]
        user(endpoint, key, secret, "reader-" + bucket, {"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Action": ["s3:GetObject", "s3:ListBucket"],
             "Resource": ["arn:aws:s3:::" + bucket, "arn:aws:s3:::" + bucket + "/*"]}]})
    elif verb == "bucket":
        endpoint, key, secret, bucket = args[1:5]
        client("s3", endpoint, key, secret).create_bucket(Bucket=bucket)
    elif verb == "public":
        # As a public bucket is made: a policy letting anyone read its objects.
        endpoint, key, secret, bucket = args[1:5]
        client("s3", endpoint, key, secret).put_bucket_policy(Bucket=bucket, Policy=json.dumps({
            "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": "*", "Action": ["s3:GetObject"],
                                                    "Resource": ["arn:aws:s3:::" + bucket + "/*"]}]}))
    elif verb == "upload":
        endpoint, key, secret, bucket, prefix, folder = args[1:7]
        s3 = client("s3", endpoint, key, secret)
        for root, _, files in os.walk(folder):
            for name in files:
                path = os.path.join(root, name)
                s3.upload_file(path, bucket, prefix + os.path.relpath(path, folder))
    elif verb == "many":
        endpoint, key, secret, bucket, prefix, count, path = args[1:8]
        s3 = client("s3", endpoint, key, secret)
        body = open(path, "rb").read()
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda i: s3.put_object(Bucket=bucket, Key="%s%05d.jpg" % (prefix, i), Body=body),
                          range(int(count))))
    elif verb == "get":
        endpoint, key, secret, bucket, name, out = args[1:7]
        client("s3", endpoint, key, secret).download_file(bucket, name, out)
    elif verb == "sign":
        method, url, seconds, key, secret, token, payload = args[1:8]
        credentials = botocore.credentials.Credentials(key, secret, token or None)
        request = botocore.awsrequest.AWSRequest(method=method, url=url)
        request.headers["X-Amz-Content-SHA256"] = payload
        # The signer reads the time through this name: the fixed input replaces it.
        fixed = datetime.datetime.fromtimestamp(int(seconds), datetime.timezone.utc).replace(tzinfo=None)
        botocore.auth.get_current_datetime = lambda *_: fixed
        botocore.auth.S3SigV4Auth(credentials, "s3", "us-east-1").add_auth(request)
        # Over http botocore hashes a PUT's body rather than leave it unsigned: the payload it
        # signed goes first, for the other signer to sign the same.
        print(request.headers["X-Amz-Content-SHA256"])
        print(request.headers["Authorization"])
    else:
        sys.exit("unknown verb " + verb)


main(sys.argv[1:])
